import type { PostStatus } from '@chorus/validators';

export const STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Pending approval',
  scheduled: 'Scheduled',
  publishing: 'Publishing',
  published: 'Published',
  failed: 'Failed',
  archived: 'Archived',
};

export function PostStatusBadge({ status }: { status: PostStatus }) {
  return <span className={`badge post-${status}`}>{STATUS_LABELS[status]}</span>;
}
