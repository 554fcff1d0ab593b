'use client';

import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { dayIn } from '~/components/zone-dates';
import { isDay } from './calendar-grid';

type MoveDialogProps = {
  title: string;
  scheduledAt: string;
  /** The post's time of day, and its day and today, on the account's calendar (`zone`). */
  time: string;
  zone: string;
  today: string;
  onMove: (day: string) => void;
};

/** The keyboard's way to do what dragging does: pick the post's new day. */
export function MoveDialog({ title, scheduledAt, time, zone, today, onMove }: MoveDialogProps) {
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
      // Moved out of the days shown, the post takes its button along: focus goes to the
      // calendar's title (a move within them finds the button on its new day).
      returnFocusTo={() => document.getElementById('calendar-title')}
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
          min={today}
          defaultValue={dayIn(scheduledAt, zone)}
          error={error}
        />
        <DialogActions submit="Move" pending={false} />
      </form>
    </Dialog>
  );
}
