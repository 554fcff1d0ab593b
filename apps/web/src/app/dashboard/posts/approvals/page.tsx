import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState } from '~/components/empty-state';
import { DataTable } from '~/components/data-table';
import { ZoneNote, ZoneTime } from '~/components/zone-time';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { ApprovalControls } from '../approval/approval-controls';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Awaiting approval' };

const PATH = '/dashboard/posts/approvals';

/** The admins' queue: posts members submitted, the soonest wished time first. */
export default async function ApprovalsPage() {
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const canDecide = mayCall(me, 'posts.approve');
  const [{ data: posts, meta }, zone] = await Promise.all([
    caller.posts.list({ status: 'pending_approval', sort: 'scheduledAt', page: 1, limit: 100 }),
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
      />
      <p className="muted small">
        <ZoneNote zone={zone} />
      </p>
    </>
  );
}
