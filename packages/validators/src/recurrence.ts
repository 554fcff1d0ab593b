import { RRule } from './rrule';
import { z } from 'zod';

/**
 * The RRULE subset a post may repeat by (RFC 5545): `FREQ` daily, weekly or monthly,
 * `INTERVAL`, `BYDAY`, and `COUNT` or `UNTIL`. The start is the post's `scheduledAt`, so
 * `DTSTART` is refused, as is every other part: a rule that fires more often than daily, or
 * by hour or minute, would let one post flood a channel.
 */
const FREQS = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const PARTS = ['FREQ', 'INTERVAL', 'BYDAY', 'COUNT', 'UNTIL'];

/** Bounds that keep a rule meaningful: at most 1,000 occurrences, a gap of at most a year. */
export const MAX_RECURRENCE_COUNT = 1000;
const MAX_INTERVAL = { DAILY: 366, WEEKLY: 52, MONTHLY: 12 } as const;
const UNTIL = /^(\d{4})(\d{2})(\d{2})(T(\d{2})(\d{2})(\d{2})Z?)?$/;

type Issue = (message: string) => void;

function checkPart(key: string, value: string, freq: string, issue: Issue) {
  if (key === 'FREQ' && !(FREQS as readonly string[]).includes(value)) {
    issue(`FREQ must be one of ${FREQS.join(', ')}.`);
  }
  if (key === 'INTERVAL' || key === 'COUNT') {
    const max =
      key === 'COUNT'
        ? MAX_RECURRENCE_COUNT
        : (MAX_INTERVAL[freq as keyof typeof MAX_INTERVAL] ?? 1);
    const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) issue(`${key} must be a whole number from 1 to ${max}.`);
  }
  if (key === 'BYDAY') {
    for (const day of value.split(',')) {
      const match = /^([+-]?[1-5])?([A-Z]{2})$/.exec(day);
      if (!match || !DAYS.includes(match[2] ?? ''))
        issue(`BYDAY "${day}" is not a weekday (MO…SU).`);
      else if (match[1] && freq !== 'MONTHLY')
        issue('A numbered BYDAY (such as 1MO) needs FREQ=MONTHLY.');
    }
  }
  if (key === 'UNTIL') {
    const [, year, month, day, , hour, minute, second] = (UNTIL.exec(value) ?? []).map(Number);
    const date = new Date(Date.UTC(year ?? NaN, (month ?? NaN) - 1, day, hour || 0, minute || 0));
    // A date that does not exist (31 February) rolls over: its day then differs.
    if (date.getUTCDate() !== day || (hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) {
      issue('UNTIL must be a date (20261231) or a time (20261231T170000Z).');
    }
  }
}

/**
 * A recurrence rule as a client sends it (an optional `RRULE:` prefix is dropped, parts are
 * upper-cased), checked part by part with a message per fault, then parsed by the `rrule`
 * library that the scheduler computes with, so nothing it would read differently gets stored.
 */
export const ZRecurrence = z
  .string()
  .trim()
  .max(200)
  .transform((value) => value.replace(/^RRULE:/i, '').toUpperCase())
  .superRefine((rule, ctx) => {
    const issue: Issue = (message) => ctx.addIssue({ code: 'custom', message });
    const parts = new Map<string, string>();
    for (const part of rule.split(';')) {
      const [key = '', value, ...rest] = part.split('=');
      if (value === undefined || value === '' || rest.length > 0) {
        return issue(`"${part}" is not a KEY=VALUE part of an RRULE.`);
      }
      if (!PARTS.includes(key)) return issue(`${key} is not supported; use ${PARTS.join(', ')}.`);
      if (parts.has(key)) return issue(`${key} is given twice.`);
      parts.set(key, value);
    }
    const freq = parts.get('FREQ');
    if (!freq) return issue('A rule needs FREQ (DAILY, WEEKLY or MONTHLY).');
    if (parts.has('COUNT') && parts.has('UNTIL')) return issue('Give COUNT or UNTIL, not both.');
    for (const [key, value] of parts) checkPart(key, value, freq, issue);
    try {
      RRule.parseString(rule);
    } catch {
      issue('Not a valid RRULE.');
    }
  })
  .meta({
    description:
      "Repeats the post: an RRULE with `FREQ` (DAILY, WEEKLY or MONTHLY), optional `INTERVAL`, `BYDAY`, and `COUNT` (up to 1000) or `UNTIL`, read in the account's time zone from `scheduledAt`, always the first occurrence (an `UNTIL` before it is refused). At each occurrence Chorus publishes a copy of the post (`recurrenceOf`). null: no repetition.",
    example: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=10',
  });
