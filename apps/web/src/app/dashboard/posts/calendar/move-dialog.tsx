'use client';

import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { dayIn, onDayIn } from '~/components/zone-dates';
import type { ActionResult } from '~/server/action-result';
import { isDay } from './calendar-grid';

type MoveDialogProps = {
  title: string;
  scheduledAt: string;
  /** The post's time of day, and its day and today, on the account's calendar (`zone`). */
  time: string;
  zone: string;
  today: string;
  /** Moves the post to `day`, at `scheduledAt` (its time of day on that day). */
  onMove: (day: string, scheduledAt: string) => Promise<ActionResult>;
};

// Moved out of the days shown, the post takes its button along: focus goes to the calendar's
// title (a move within them finds the button on its new day).
const calendarTitle = () => document.getElementById('calendar-title');

const refused = (message: string): ActionResult => ({ error: message, fields: { day: message } });

/**
 * The keyboard's way to do what dragging does: pick the post's new day. The dialog waits for
 * the answer, so that a refusal (that time of day already past on the day picked) shows beside
 * the day, which stays as picked; a drag, which has no form, moves the post at once.
 */
export function MoveDialog({ title, scheduledAt, time, zone, today, onMove }: MoveDialogProps) {
  const [open, setOpen] = useState(false);
  const { result, form, pending, reset } = useFormAction(
    async (_, data) => {
      const answer = await onMove(String(data.get('day')), String(data.get('scheduledAt')));
      // The API speaks of the instant; the dialog asks for its day.
      const said = answer.fields?.scheduledAt;
      return said ? { ...answer, fields: { day: said } } : answer;
    },
    {
      prepare: (data) => {
        const day = String(data.get('day') ?? '');
        if (!isDay(day)) return refused('Pick a day.');
        if (day === dayIn(scheduledAt, zone)) return refused('The post is on this day already.');
        data.set('scheduledAt', onDayIn(scheduledAt, day, zone) ?? '');
      },
      onSuccess: () => setOpen(false),
      focusAfter: calendarTitle,
    },
  );
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) reset();
  };
  const fields = result.fields ?? {};
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      returnFocusTo={calendarTitle}
      title={`Move “${title}”`}
      description={`To another day, at the same time of day (${time}).`}
      trigger={
        <button type="button" className="link small" aria-label={`Move “${title}” to another day`}>
          Move…
        </button>
      }
    >
      <form {...form} className="form">
        <Field
          label="New day"
          name="day"
          type="date"
          required
          min={today}
          defaultValue={dayIn(scheduledAt, zone)}
          error={fields.day}
        />
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <DialogActions submit="Move" pending={pending} />
      </form>
    </Dialog>
  );
}
