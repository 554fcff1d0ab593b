import type { Post } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { approvePost } from './actions';
import { RejectDialog } from './reject-dialog';

type ApprovalControlsProps = {
  post: Pick<Post, 'id' | 'title' | 'status'>;
  /** The viewer may approve and reject (an admin with the scope). */
  canDecide: boolean;
};

/**
 * Approve and Reject for an admin on a pending post. Submitting is the composer's last step for
 * a member who must submit, so that it saves what they wrote first.
 */
export function ApprovalControls({ post, canDecide }: ApprovalControlsProps) {
  if (post.status === 'pending_approval' && canDecide) {
    return (
      <div className="actions">
        <ActionButton
          action={approvePost}
          values={{ id: post.id }}
          className="primary"
          label={`Approve “${post.title}”`}
        >
          Approve
        </ActionButton>
        <RejectDialog id={post.id} title={post.title} />
      </div>
    );
  }
  return null;
}
