'use client';

import type { Post, PostStatus } from '@chorus/validators';
import { useId } from 'react';
import { ActionButton } from '~/components/action-button';
import { ConfirmAction } from '~/components/confirm-action';
import { changePostStatus } from './actions';
import { useComposerBlocked } from './composer/problems';

/**
 * What each change is called on its button (Publish now is PublishNow's); scheduling is the
 * composer's last step (it checks the post's channels first), and only the publishing engine
 * moves a post into `publishing` or `failed`.
 */
const BUTTONS: Partial<Record<PostStatus, string>> = {
  draft: 'Move back to draft',
  archived: 'Archive',
};

type StatusActionsProps = {
  post: Pick<Post, 'id' | 'title'>;
  /** The statuses the post may move to now: the API's transition table, read by the page. */
  next: readonly PostStatus[];
  /** The channels it goes to, in words ("Studio (Bluesky)"), for Publish now's confirmation. */
  channels: readonly string[];
};

/**
 * Publish now sends to the networks, which cannot be taken back: it asks first, naming the
 * channels, and waits, as Schedule does, while the composer lists problems (docs/dashboard.md).
 */
function PublishNow({ post, channels }: Omit<StatusActionsProps, 'next'>) {
  const blocked = useComposerBlocked();
  const whyId = useId();
  return (
    <>
      <ConfirmAction
        button="Publish now"
        label="Publish now"
        title="Publish this post now?"
        description={
          channels.length > 0
            ? `“${post.title}” goes out now to ${channels.join(', ')}. What the networks show cannot be taken back from here.`
            : `“${post.title}” has no channel: it is marked published, and goes nowhere.`
        }
        confirm="Publish now"
        action={changePostStatus}
        values={{ id: post.id, status: 'published' }}
        tone="primary"
        disabled={blocked !== null}
        describedBy={blocked ? whyId : undefined}
      />
      {blocked && (
        <p id={whyId} className="small muted">
          Publish now waits until the composer below has nothing left to fix.
        </p>
      )}
    </>
  );
}

/** One button per allowed change of status that is not scheduling. */
export function StatusActions({ post, next, channels }: StatusActionsProps) {
  return (
    <div className="actions">
      {next.map((status) =>
        status === 'published' ? (
          <PublishNow key={status} post={post} channels={channels} />
        ) : (
          BUTTONS[status] && (
            <ActionButton key={status} action={changePostStatus} values={{ id: post.id, status }}>
              {BUTTONS[status]}
            </ActionButton>
          )
        ),
      )}
    </div>
  );
}
