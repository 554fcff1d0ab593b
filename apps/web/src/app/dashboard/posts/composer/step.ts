import type { Post, PostStatus } from '@chorus/validators';

/** What the composer's last button sends besides saving. */
export type Intent = 'schedule' | 'submit';

/** The composer's buttons: saving, and the step after writing (when there is one). */
export interface ComposerStep {
  save: string;
  next: { label: string; intent: Intent; when: string } | null;
}

/**
 * The buttons for a post in `status` (none: a new post). While the account requires approval,
 * a `user` member submits instead of scheduling (the API refuses them scheduling and any change
 * to a scheduled post); a scheduled post is rescheduled with its text in one save.
 */
export function composerStep(status: PostStatus | undefined, submits: boolean): ComposerStep {
  const save = status === undefined ? 'Save as draft' : 'Save';
  if (status === undefined || status === 'draft') {
    return {
      save,
      next: submits
        ? { label: 'Submit for approval', intent: 'submit', when: 'Publish at, once approved' }
        : { label: 'Schedule', intent: 'schedule', when: 'Publish at' },
    };
  }
  if (status === 'scheduled' && !submits) {
    return { save, next: { label: 'Reschedule', intent: 'schedule', when: 'Publish at' } };
  }
  return { save, next: null };
}

/**
 * Why the member may not change the post here, or null when they may. What was sent stays on the
 * networks whatever Chorus's copy says, and a post being sent would change between its targets;
 * a failed one stays editable, to fix what a network refused and retry. While they must submit,
 * a scheduled post is not theirs to change either; nor, for anyone but an admin, a post awaiting
 * approval (the admin approves what was submitted: docs/workflow.md).
 */
export function readOnlyBecause(
  post: Pick<Post, 'status'>,
  submits: boolean,
  admin = false,
): string | null {
  if (post.status === 'pending_approval' && !admin) {
    return 'It awaits an admin’s approval: withdraw it to draft to change it, then submit it again.';
  }
  if (post.status === 'publishing') {
    return 'It is being published: it can be changed once publishing has ended.';
  }
  if (post.status === 'published') {
    return 'The networks show the post as it was sent, so it is no longer edited here; it can still be archived.';
  }
  if (submits && post.status === 'scheduled') {
    return 'Posts need an admin’s approval: move it back to draft to change it, then submit it again.';
  }
  return null;
}
