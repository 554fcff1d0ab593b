'use client';

import { useId, useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { resolveTarget } from '../actions';

type ResolveDialogProps = { postId: string; targetId: string; network: string; name: string };

/**
 * Settles an unconfirmed target: the user looked on the network and says what they found.
 * Nothing is chosen beforehand, so a wrong guess is never one click away.
 */
export function ResolveDialog({ postId, targetId, network, name }: ResolveDialogProps) {
  const [open, setOpen] = useState(false);
  const { result, form, pending, reset } = useFormAction(resolveTarget, {
    onSuccess: () => setOpen(false),
  });
  const id = useId();
  const fields = result.fields ?? {};
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) reset();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Is the post on ${network}?`}
      description={`Chorus sent it to ${name} and the answer was lost. Look at the channel on ${network}: if the post is there, mark it published (with its link if you have it); if not, mark it not published and retry.`}
      trigger={
        <button type="button" aria-label={`Resolve ${name}`}>
          Resolve…
        </button>
      }
    >
      <form {...form} className="form">
        <input type="hidden" name="id" value={postId} />
        <input type="hidden" name="targetId" value={targetId} />
        <fieldset
          className="choices"
          aria-describedby={fields.outcome ? `${id}-outcome` : undefined}
        >
          <legend>What did you find?</legend>
          <label>
            <input type="radio" name="outcome" value="published" /> It is there: published
          </label>
          <label>
            <input type="radio" name="outcome" value="not-published" /> It is not there: not
            published
          </label>
          {fields.outcome && (
            <small id={`${id}-outcome`} className="error">
              {fields.outcome}
            </small>
          )}
        </fieldset>
        <Field label="Link to the post (if published)" name="url" type="url" error={fields.url} />
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <DialogActions submit="Confirm" pending={pending} />
      </form>
    </Dialog>
  );
}
