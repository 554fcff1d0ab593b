import type { Post, Target } from '@chorus/validators';

const TARGET_LABELS: Record<Exclude<Target['status'], 'pending'>, string> = {
  publishing: 'Sending',
  published: 'Published',
  failed: 'Failed',
  unconfirmed: 'Unconfirmed',
};

/**
 * A target's state in words. One not yet sent (`pending`) waits for what its post waits for:
 * a draft's is not sent yet, a scheduled post's goes at its time, and only a publishing post's
 * is in the queue.
 */
export function targetLabel(target: Pick<Target, 'status'>, post: Pick<Post, 'status'>) {
  if (target.status !== 'pending') return TARGET_LABELS[target.status];
  if (post.status === 'publishing') return 'Waiting';
  if (post.status === 'scheduled') return 'Scheduled';
  if (post.status === 'pending_approval') return 'Awaiting approval';
  return 'Not sent';
}
