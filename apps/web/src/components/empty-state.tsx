import Link from 'next/link';
import type { ReactNode } from 'react';
import { counted } from './format';

/** What a list shows when it has nothing, with what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <strong>{title}</strong>
      {children && <p className="muted">{children}</p>}
    </div>
  );
}

/**
 * A page number past a list's last page (an old link, `?page=99`): the list is not empty, so
 * this says where the page stands and links back to the first, never "nothing yet".
 */
export function PastLastPage({ pages, href }: { pages: number; href: string }) {
  return (
    <EmptyState title="Nothing on this page">
      This page is past the last one (the list has {counted(pages, 'page', 'pages')}).{' '}
      <Link href={href}>Go to page 1</Link>
    </EmptyState>
  );
}
