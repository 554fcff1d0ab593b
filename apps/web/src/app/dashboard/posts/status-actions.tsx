'use client';

import type { PostStatus } from '@chorus/validators';
import { useId, useState, type MouseEvent } from 'react';
import { Dialog, DialogClose } from '~/components/dialog';
import { changePostStatus } from './actions';
import { useComposerState } from './composer/composer-state';
import { savingFirst, StatusButton } from './composer/status-button';

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
  post: { id: string };
  /** The statuses the post may move to now: the API's transition table, read by the page. */
  next: readonly PostStatus[];
  /** The composer form's id, when the page shows the composer. */
  composer?: string;
};

/** The title the composer's form holds now. */
function typedTitle(composer: string) {
  const form = document.getElementById(composer);
  const field = form instanceof HTMLFormElement ? form.elements.namedItem('title') : null;
  return field instanceof HTMLInputElement ? field.value : '';
}

/**
 * Publish now sends to the networks, which cannot be taken back: it asks first, naming the
 * title and channels the composer holds, which it sends (saving what is unsaved first), and
 * waits, as Schedule does, while the composer lists problems (docs/dashboard.md).
 */
function PublishNow({ composer }: { composer: string }) {
  const { blocked, unsaved, pending, channels } = useComposerState();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const whyId = useId();
  const name = unsaved ? savingFirst('Publish now') : 'Publish now';
  const saved = unsaved ? ' Your changes below are saved first: it goes out as shown there.' : '';
  const description =
    channels.length > 0
      ? `“${title}” goes out now to ${channels.join(', ')}.${saved} What the networks show cannot be taken back from here.`
      : `“${title}” has no channel: it is marked published, and goes nowhere.${saved}`;
  const onOpenChange = (next: boolean) => {
    if (next) setTitle(typedTitle(composer));
    setOpen(next);
  };
  // The confirmation submits the composer's form; the dialog closes once it is sent (after this
  // click, which the form needs connected). A form the browser refuses (an empty title) shows
  // why beside its field, the dialog out of the way.
  const send = (event: MouseEvent<HTMLButtonElement>) => {
    const form = document.getElementById(composer);
    if (form instanceof HTMLFormElement && !form.checkValidity()) {
      event.preventDefault();
      setOpen(false);
      setTimeout(() => form.reportValidity());
      return;
    }
    setTimeout(() => setOpen(false));
  };
  return (
    <>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title="Publish this post now?"
        description={description}
        trigger={
          <button
            type="button"
            className="primary"
            disabled={blocked !== null || pending}
            aria-describedby={blocked ? whyId : undefined}
          >
            {name}
          </button>
        }
      >
        <div className="actions end">
          <DialogClose asChild>
            <button type="button">Cancel</button>
          </DialogClose>
          <button
            type="submit"
            form={composer}
            name="intent"
            value="published"
            className="primary"
            onClick={send}
          >
            {name}
          </button>
        </div>
      </Dialog>
      {blocked && (
        <p id={whyId} className="small muted">
          Publish now waits until the composer below has nothing left to fix.
        </p>
      )}
    </>
  );
}

/**
 * One button per allowed change of status that is not scheduling. With the composer on the
 * page they submit its form, its unsaved changes saved with the change; Publish now is offered
 * only there (a post that may be published is one the composer shows).
 */
export function StatusActions({ post, next, composer }: StatusActionsProps) {
  return (
    <div className="actions">
      {next.map((status) => {
        if (status === 'published') {
          return composer && <PublishNow key={status} composer={composer} />;
        }
        const label = BUTTONS[status];
        return (
          label && (
            <StatusButton
              key={status}
              composer={composer}
              intent={status}
              action={changePostStatus}
              values={{ id: post.id, status }}
            >
              {label}
            </StatusButton>
          )
        );
      })}
    </div>
  );
}
