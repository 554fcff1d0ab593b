import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState } from '~/components/empty-state';
import { DataTable } from '~/components/data-table';
import { envelopePage } from '~/components/pagination';
import { ZoneNote, ZoneTime } from '~/components/zone-time';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { ApprovalControls } from '../approval/approval-controls';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Awaiting approval' };

const PATH = '/dashboard/posts/approvals';
const PER_PAGE = 20;
const SEARCH = { page: searchField.page };

/** The admins' queue: posts members submitted, the soonest wished time first, page by page. */
export default async function ApprovalsPage(props: { searchParams: Promise<SearchParams> }) {
  const { page } = parseSearch(await props.searchParams, SEARCH);
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const canDecide = mayCall(me, 'posts.approve');
  const [{ data: posts, meta }, zone] = await Promise.all([
    caller.posts.list({ status: 'pending_approval', sort: 'scheduledAt', page, limit: PER_PAGE }),
    accountZone(caller),
  ]);
  const total = meta.pagination.total;
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>Awaiting approval</h1>
          <p className="lead">
            {canDecide
              ? 'Posts that members submitted: approve them to schedule or publish them, or reject them with a comment.'
              : 'Posts waiting for an admin to approve them.'}
          </p>
        </div>
      </div>
      <p role="status" className="muted">
        {total === 1 ? '1 post awaits approval.' : `${total} posts await approval.`}
      </p>
      <DataTable
        label="Posts awaiting approval"
        rows={posts}
        rowKey={(post) => post.id}
        empty={<EmptyState title="Nothing to review">Submitted posts appear here.</EmptyState>}
        columns={[
          {
            header: 'Title',
            className: 'title',
            cell: (post) => <Link href={`/dashboard/posts/${post.id}`}>{post.title}</Link>,
          },
          {
            header: 'Goes out',
            cell: (post) =>
              post.scheduledAt ? <ZoneTime iso={post.scheduledAt} zone={zone} /> : 'Once approved',
          },
          { header: 'Submitted', cell: (post) => <ZoneTime iso={post.updatedAt} zone={zone} /> },
          canDecide && {
            header: 'Decision',
            cell: (post) => <ApprovalControls post={post} canDecide />,
          },
        ]}
        pagination={{
          at: envelopePage(meta.pagination),
          href: (p) => (p > 1 ? `${PATH}?page=${p}` : PATH),
        }}
      />
      <p className="muted small">
        <ZoneNote zone={zone} />
      </p>
    </>
  );
}
