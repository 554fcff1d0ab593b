'use client';

import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { localDay, localToday } from '~/components/local-dates';
import { isDay } from './calendar-grid';

type MoveDialogProps = {
  title: string;
  scheduledAt: string;
  time: string;
  onMove: (day: string) => void;
};

/** The keyboard's way to do what dragging does: pick the post's new day. */
export function MoveDialog({ title, scheduledAt, time, onMove }: MoveDialogProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const submit = (form: FormData) => {
    const day = String(form.get('day') ?? '');
    if (!isDay(day)) return setError('Pick a day.');
    setError(undefined);
    setOpen(false);
    onMove(day);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={`Move “${title}”`}
      description={`To another day, at the same time of day (${time}).`}
      trigger={
        <button type="button" className="link small" aria-label={`Move “${title}” to another day`}>
          Move…
        </button>
      }
    >
      <form action={submit} className="form">
        <Field
          label="New day"
          name="day"
          type="date"
          required
          min={localToday()}
          defaultValue={localDay(scheduledAt)}
          error={error}
        />
        <DialogActions submit="Move" pending={false} />
      </form>
    </Dialog>
  );
}
