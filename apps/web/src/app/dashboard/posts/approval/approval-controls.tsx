import type { Post } from '@chorus/validators';
import { StatusButton } from '../composer/status-button';
import { approvePost } from './actions';
import { RejectDialog } from './reject-dialog';

type ApprovalControlsProps = {
  post: Pick<Post, 'id' | 'title' | 'status'>;
  /** The viewer may approve and reject (an admin with the scope). */
  canDecide: boolean;
  /** The composer form's id, when the page shows the composer: Approve saves what it holds. */
  composer?: string;
};

/**
 * Approve and Reject for an admin on a pending post. Submitting is the composer's last step for
 * a member who must submit, so that it saves what they wrote first; an admin's Approve on the
 * post's page likewise saves their edits with it.
 */
export function ApprovalControls({ post, canDecide, composer }: ApprovalControlsProps) {
  if (post.status === 'pending_approval' && canDecide) {
    return (
      <div className="actions">
        <StatusButton
          composer={composer}
          intent="approve"
          action={approvePost}
          values={{ id: post.id }}
          className="primary"
          label={`Approve “${post.title}”`}
        >
          Approve
        </StatusButton>
        <RejectDialog id={post.id} title={post.title} />
      </div>
    );
  }
  return null;
}
