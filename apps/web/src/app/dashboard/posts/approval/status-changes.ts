import type { PostStatus } from '@chorus/validators';

/**
 * The changes of status to offer: without scheduling and publishing for a member who must
 * submit instead (the API would refuse them with approval_required).
 */
export const withoutPublishing = (next: readonly PostStatus[], submits: boolean) =>
  submits ? next.filter((status) => status !== 'scheduled' && status !== 'published') : next;
