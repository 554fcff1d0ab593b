'use client';

import type { Post, PostStatus } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { changePostStatus } from './actions';

/**
 * What each change is called on its button; scheduling is the composer's last step (it checks
 * the post's channels first), and only the publishing engine moves a post into `publishing` or
 * `failed`.
 */
const BUTTONS: Partial<Record<PostStatus, string>> = {
  draft: 'Move back to draft',
  published: 'Publish now',
  archived: 'Archive',
};

type StatusActionsProps = {
  post: Pick<Post, 'id'>;
  /** The statuses the post may move to now: the API's transition table, read by the page. */
  next: readonly PostStatus[];
};

/** One button per allowed change of status that is not scheduling. */
export function StatusActions({ post, next }: StatusActionsProps) {
  return (
    <div className="actions">
      {next.map(
        (status) =>
          BUTTONS[status] && (
            <ActionButton
              key={status}
              action={changePostStatus}
              values={{ id: post.id, status }}
              className={status === 'published' ? 'primary' : undefined}
            >
              {BUTTONS[status]}
            </ActionButton>
          ),
      )}
    </div>
  );
}
