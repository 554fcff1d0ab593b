'use client';

import { MAX_SLOTS, WEEKDAYS, type Slot } from '@chorus/validators';
import { useId, useRef, useState, type Ref } from 'react';
import { flushSync } from 'react-dom';
import { useFormAction } from '~/components/use-form-action';
import { saveSlots } from './actions';
import { DAY_LABELS } from './day-labels';

type Row = Slot & { key: number };

/** One slot's day and time, labelled by its number, with its refusal beside it. */
function SlotRow({
  row,
  index,
  error,
  onChange,
  onRemove,
  removeRef,
}: {
  row: Row;
  index: number;
  error?: string;
  onChange: (row: Row) => void;
  onRemove: () => void;
  removeRef: Ref<HTMLButtonElement>;
}) {
  const id = useId();
  const invalid = error ? true : undefined;
  const described = error ? `${id}-error` : undefined;
  return (
    <fieldset className="slot-row">
      <legend>Slot {index + 1}</legend>
      <div className="field">
        <label htmlFor={`${id}-day`}>Day</label>
        <select
          id={`${id}-day`}
          name="day"
          value={row.day}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(event) => onChange({ ...row, day: event.target.value as Slot['day'] })}
        >
          {WEEKDAYS.map((day) => (
            <option key={day} value={day}>
              {DAY_LABELS[day]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-time`}>Time</label>
        <input
          id={`${id}-time`}
          name="time"
          type="time"
          required
          value={row.time}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(event) => onChange({ ...row, time: event.target.value })}
        />
      </div>
      <button type="button" className="link" onClick={onRemove} ref={removeRef}>
        Remove slot {index + 1}
      </button>
      {error && (
        <small id={described} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

/**
 * An admin's editor of a channel's weekly posting slots, in the account's time zone. The rows
 * live here until saved, so a refused save keeps what was typed, each refusal beside its row.
 */
export function SlotEditor({
  channelId,
  slots,
  timeZone,
}: {
  channelId: string;
  slots: Slot[];
  timeZone: string;
}) {
  const [rows, setRows] = useState<Row[]>(() => slots.map((slot, key) => ({ ...slot, key })));
  const [next, setNext] = useState(slots.length);
  const { result, form, pending } = useFormAction(saveSlots);
  // A removed row takes its focused button with it, which would leave focus on <body> (the top
  // of the page, for a keyboard user): it goes to the next row's Remove, or to Add a slot.
  const removeButtons = useRef(new Map<number, HTMLButtonElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  const remove = (index: number) => {
    const next = rows[index + 1];
    // Drawn at once, so that the button to focus is the one on the page.
    flushSync(() => setRows(rows.filter((_, i) => i !== index)));
    ((next && removeButtons.current.get(next.key)) ?? addButton.current)?.focus();
  };
  const add = () => {
    const last = rows.at(-1);
    setRows([...rows, { day: last?.day ?? 'monday', time: '09:00', key: next }]);
    setNext(next + 1);
  };
  return (
    <form {...form} className="form slot-editor" aria-label="Posting slots">
      <input type="hidden" name="channelId" value={channelId} />
      <p className="muted small">Times are in the account’s time zone, {timeZone}.</p>
      {rows.length === 0 && <p className="muted">No slots yet.</p>}
      {rows.map((row, index) => (
        <SlotRow
          key={row.key}
          row={row}
          index={index}
          error={result.fields?.[`slot-${index}`]}
          onChange={(changed) => setRows(rows.map((r) => (r.key === row.key ? changed : r)))}
          onRemove={() => remove(index)}
          removeRef={(button) => {
            if (button) removeButtons.current.set(row.key, button);
            else removeButtons.current.delete(row.key);
          }}
        />
      ))}
      {result.fields?.slots && (
        <p className="error" role="alert">
          {result.fields.slots}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={add} disabled={rows.length >= MAX_SLOTS} ref={addButton}>
          Add a slot
        </button>
        <button type="submit" className="primary" disabled={pending}>
          Save slots
        </button>
      </div>
    </form>
  );
}
