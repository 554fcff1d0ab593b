'use client';

import type { Post, PostStatus } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { changePostStatus } from './actions';
import { ScheduleForm } from './schedule-form';

/**
 * What each change is called on its button; scheduling has a form of its own, and only the
 * publishing engine moves a post into `publishing` or `failed`.
 */
const BUTTONS: Partial<Record<PostStatus, string>> = {
  draft: 'Move back to draft',
  published: 'Publish now',
  archived: 'Archive',
};

type StatusActionsProps = {
  post: Pick<Post, 'id' | 'title' | 'status' | 'scheduledAt'>;
  /** The statuses the post may move to now: the API's transition table, read by the page. */
  next: readonly PostStatus[];
};

/** One control per allowed change of status, and the schedule form while scheduling is one. */
export function StatusActions({ post, next }: StatusActionsProps) {
  const schedulable = next.includes('scheduled') || post.status === 'scheduled';
  return (
    <div className="status-actions">
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
      {schedulable && <ScheduleForm post={post} />}
    </div>
  );
}
