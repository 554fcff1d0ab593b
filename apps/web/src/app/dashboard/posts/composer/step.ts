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

/** Whether the member may change the post at all: not a scheduled one while they must submit. */
export const editableBy = (post: Pick<Post, 'status'>, submits: boolean) =>
  !(submits && post.status === 'scheduled');
