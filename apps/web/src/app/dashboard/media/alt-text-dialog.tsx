'use client';

import type { Media } from '@chorus/validators';
import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { updateAltText } from './actions';

/** Edits one item's alt text; a refusal shows beside the field and keeps what was typed. */
export function AltTextDialog({ item }: { item: Pick<Media, 'id' | 'filename' | 'altText'> }) {
  const [open, setOpen] = useState(false);
  const { result, form, pending, reset } = useFormAction(updateAltText, {
    onSuccess: () => setOpen(false),
  });
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) reset();
  };
  const fields = result.fields ?? {};
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit the alt text"
      description={item.filename}
      trigger={
        <button type="button" aria-label={`Edit alt text of ${item.filename}`}>
          Edit alt text
        </button>
      }
    >
      <form {...form} className="form">
        <input type="hidden" name="id" value={item.id} />
        <Field
          label="Alt text"
          name="altText"
          maxLength={1000}
          defaultValue={item.altText ?? ''}
          error={fields.altText}
          hint="What it shows, for people who cannot see it (up to 1,000 characters). Empty clears it."
        />
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <DialogActions submit="Save" pending={pending} />
      </form>
    </Dialog>
  );
}
