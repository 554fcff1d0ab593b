import type { Post } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { approvePost, submitForApproval } from './actions';
import { RejectDialog } from './reject-dialog';

type ApprovalControlsProps = {
  post: Pick<Post, 'id' | 'title' | 'status'>;
  /** The viewer may approve and reject (an admin with the scope). */
  canDecide: boolean;
  /** The viewer may submit: they can write posts and the account requires approval of them. */
  canSubmit: boolean;
};

/** Approve and Reject for an admin on a pending post; Submit for approval on a draft. */
export function ApprovalControls({ post, canDecide, canSubmit }: ApprovalControlsProps) {
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
  if (post.status === 'draft' && canSubmit) {
    return (
      <div className="actions">
        <ActionButton action={submitForApproval} values={{ id: post.id }} className="primary">
          Submit for approval
        </ActionButton>
      </div>
    );
  }
  return null;
}
