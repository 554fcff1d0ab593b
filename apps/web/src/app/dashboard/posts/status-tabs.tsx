import { POST_STATUSES, type PostStatus } from '@chorus/validators';
import Link from 'next/link';
import { STATUS_LABELS } from './post-status';

type TabsProps = { current?: PostStatus; href: (status?: PostStatus) => string };

/** All posts, or those of one status: links, so each tab is an address to share. */
export function StatusTabs({ current, href }: TabsProps) {
  const tabs = [undefined, ...POST_STATUSES];
  return (
    <nav className="tabs" aria-label="Status">
      {tabs.map((status) => (
        <Link
          key={status ?? 'all'}
          href={href(status)}
          aria-current={status === current ? 'page' : undefined}
        >
          {status ? STATUS_LABELS[status] : 'All'}
        </Link>
      ))}
    </nav>
  );
}
