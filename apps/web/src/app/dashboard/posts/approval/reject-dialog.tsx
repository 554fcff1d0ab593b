'use client';

import { useId, useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { useFormAction } from '~/components/use-form-action';
import { useComposerState } from '../composer/composer-state';
import { rejectPost } from './actions';

/** Reject, with the comment the author will read: required, its refusal shown beside it. */
export function RejectDialog({ id, title }: { id: string; title: string }) {
  const [open, setOpen] = useState(false);
  const field = useId();
  const { result, form, pending } = useFormAction(rejectPost, { onSuccess: () => setOpen(false) });
  const error = result.fields?.comment;
  // The author gets the post as submitted: an edit of the admin's on its page is not kept.
  const { unsaved } = useComposerState();
  const dropped = unsaved ? ' Your unsaved changes to it below are not kept.' : '';
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Reject this post?"
      description={`“${title}” goes back to its author as a draft, with your comment.${dropped}`}
      trigger={
        <button type="button" className="danger" aria-label={`Reject “${title}”`}>
          Reject
        </button>
      }
    >
      <form {...form} className="form" noValidate>
        <input type="hidden" name="id" value={id} />
        <div className="field">
          <label htmlFor={field}>Comment for the author</label>
          <textarea
            id={field}
            name="comment"
            rows={4}
            maxLength={2000}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${field}-error` : undefined}
          />
          {error && (
            <small id={`${field}-error`} className="error">
              {error}
            </small>
          )}
        </div>
        {result.error && !error && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <DialogActions submit="Reject post" tone="danger" pending={pending} />
      </form>
    </Dialog>
  );
}
