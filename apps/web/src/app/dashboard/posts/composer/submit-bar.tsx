'use client';

import Link from 'next/link';
import { SLOTS_PAGE } from '~/components/api-words';
import { Field } from '~/components/field';
import { inputIn } from '~/components/zone-dates';
import { ZoneNote, ZoneTime } from '~/components/zone-time';
import type { NextSlotAnswer } from '../actions';
import type { ComposerStep } from './step';

type SubmitBarProps = {
  step: ComposerStep;
  /** The post's current time, shown on the clock of `zone`, the account's time zone. */
  scheduledAt?: string | null;
  zone: string;
  /** What a refused form had typed in the time field, when the form was drawn anew. */
  typed?: string;
  error?: string;
  pending: boolean;
  /** Why the next step cannot be taken yet (problems to fix, the server's check pending). */
  blocked: string | null;
  /** What Next free slot would take now (undefined with no channel chosen). */
  nextSlot?: NextSlotAnswer | 'asking';
  id: string;
  /** Told each new time typed (the field stays uncontrolled). */
  onWhenChange?: (when: string) => void;
};

const SLOTS_EXPLAINED =
  'the earliest of the chosen channels’ posting slots that none of their posts holds (each channel’s slots are set on its page under Integrations).';

/** Why there is no slot, the channel's Posting slots page a link where the reason names it. */
function NoSlot({ reason, slotsPage }: { reason: string; slotsPage?: string }) {
  const at = slotsPage ? reason.indexOf(SLOTS_PAGE) : -1;
  if (!slotsPage || at < 0) return <>{reason}</>;
  return (
    <>
      {reason.slice(0, at)}
      <Link href={slotsPage}>{SLOTS_PAGE}</Link>
      {reason.slice(at + SLOTS_PAGE.length)}
    </>
  );
}

/** Before the click: when Next free slot would schedule the post, or why it would not. */
function NextSlotNote({ answer, zone }: { answer?: NextSlotAnswer | 'asking'; zone: string }) {
  if (answer === undefined) return <>Next free slot: {SLOTS_EXPLAINED}</>;
  if (answer === 'asking') return <>Next free slot: finding the chosen channels’ next free slot…</>;
  if ('error' in answer) return <>Next free slot: {answer.error}</>;
  if (answer.at === null) {
    return (
      <>
        Next free slot: none. <NoSlot reason={answer.reason ?? ''} slotsPage={answer.slotsPage} />
      </>
    );
  }
  return (
    <>
      Next free slot: <ZoneTime iso={answer.at} zone={zone} />, {SLOTS_EXPLAINED}
    </>
  );
}

/**
 * Save, and the step after writing: a time on the account's clock and Schedule (or Reschedule,
 * or Submit for approval), or the channels' next free posting slot, disabled with the reason
 * while the post would be refused.
 */
export function SubmitBar({
  step,
  scheduledAt,
  zone,
  typed,
  error,
  pending,
  blocked,
  nextSlot,
  id,
  onWhenChange,
}: SubmitBarProps) {
  const { next } = step;
  if (!next) {
    return (
      <button type="submit" className="primary" disabled={pending}>
        {step.save}
      </button>
    );
  }
  const current = scheduledAt ? inputIn(scheduledAt, zone) : undefined;
  const note = <ZoneNote zone={zone} prefix="In the account’s time zone" />;
  // Whoever may schedule may also take the channels' next free slot.
  const queue = next.intent === 'schedule';
  const disabled = pending || blocked !== null;
  const hint =
    next.intent === 'submit' ? (
      <>An admin approves it first; with no time it goes out once approved. {note}</>
    ) : (
      note
    );
  return (
    <div className="composer-submit">
      <button type="submit" name="intent" value="save" disabled={pending}>
        {step.save}
      </button>
      <Field
        label={next.when}
        name="scheduledAt"
        type="datetime-local"
        defaultValue={typed ?? current}
        // onInput, not onChange: React drops a change whose value was set by script first
        // (a browser extension, an automated test), and this field only informs a hint.
        onInput={(event) => onWhenChange?.(event.currentTarget.value)}
        hint={hint}
        error={error}
      />
      <div className="composer-actions">
        <button
          type="submit"
          name="intent"
          value={next.intent}
          className="primary"
          disabled={disabled}
          aria-describedby={blocked ? `${id}-blocked` : undefined}
        >
          {next.label}
        </button>
        {queue && (
          <button
            type="submit"
            name="intent"
            value="queue"
            disabled={disabled}
            aria-describedby={`${id}-queue`}
          >
            Next free slot
          </button>
        )}
      </div>
      {queue && (
        <p id={`${id}-queue`} className="small muted" aria-live="polite">
          <NextSlotNote answer={nextSlot} zone={zone} />
        </p>
      )}
      {blocked && (
        <p id={`${id}-blocked`} className="small muted">
          {blocked}
        </p>
      )}
    </div>
  );
}
