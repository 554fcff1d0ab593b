'use client';

import { Field } from '~/components/field';
import { toLocalInput } from '~/components/local-dates';
import { TimeZoneNote, useTimeZone } from '~/components/local-time';
import type { ComposerStep } from './step';

type SubmitBarProps = {
  step: ComposerStep;
  /** The post's current time, shown on the reader's clock once the browser knows it. */
  scheduledAt?: string | null;
  /** What a refused form had typed in the time field. */
  typed?: string;
  error?: string;
  pending: boolean;
  /** Why the next step cannot be taken yet (problems to fix, the server's check pending). */
  blocked: string | null;
  id: string;
};

/**
 * Save, and the step after writing: a time on the reader's clock and Schedule (or Reschedule,
 * or Submit for approval), disabled with the reason while the post would be refused.
 */
export function SubmitBar({
  step,
  scheduledAt,
  typed,
  error,
  pending,
  blocked,
  id,
}: SubmitBarProps) {
  const zone = useTimeZone();
  const { next } = step;
  if (!next) {
    return (
      <button type="submit" className="primary" disabled={pending}>
        {step.save}
      </button>
    );
  }
  // The post's time on the reader's clock is known only in the browser: the field is drawn
  // again once it is.
  const current = zone && scheduledAt ? toLocalInput(scheduledAt) : undefined;
  const hint =
    next.intent === 'submit' ? (
      <>
        An admin approves it first; with no time it goes out once approved.{' '}
        <TimeZoneNote prefix="In your time zone" />
      </>
    ) : (
      <TimeZoneNote prefix="In your time zone" />
    );
  return (
    <div className="composer-submit">
      <button type="submit" name="intent" value="save" disabled={pending}>
        {step.save}
      </button>
      <Field
        key={zone ?? ''}
        label={next.when}
        name="when"
        type="datetime-local"
        defaultValue={typed ?? current}
        hint={hint}
        error={error}
      />
      <button
        type="submit"
        name="intent"
        value={next.intent}
        className="primary"
        disabled={pending || blocked !== null}
        aria-describedby={blocked ? `${id}-blocked` : undefined}
      >
        {next.label}
      </button>
      {blocked && (
        <p id={`${id}-blocked`} className="small muted">
          {blocked}
        </p>
      )}
    </div>
  );
}
