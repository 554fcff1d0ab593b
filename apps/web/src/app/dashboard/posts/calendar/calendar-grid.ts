// Relative, not `~/`: the unit tests import this file without Next's path aliases.
import { dayStartIn } from '../../../../components/zone-dates';

/**
 * Calendar days as `YYYY-MM-DD` strings, with arithmetic that needs no time zone (a day is a
 * day in any); only the instants a view covers depend on the account's. Weeks start on Monday
 * (ISO 8601).
 */
export type CalendarView = 'month' | 'week';

const DAY_MS = 86_400_000;
const LAST_DAY = '9999-12-31';
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const toMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A real calendar day written `YYYY-MM-DD` (so not 2026-02-30). */
export const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && toDay(toMs(value)) === value;

export const addDays = (day: string, n: number) => toDay(toMs(day) + n * DAY_MS);

/** The first day of the month `n` months from `day`'s. */
export function addMonths(day: string, n: number) {
  const d = new Date(toMs(day));
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + n);
  return toDay(d.getTime());
}

/** Monday = 0 … Sunday = 6. */
export const weekdayIndex = (day: string) => (new Date(toMs(day)).getUTCDay() + 6) % 7;
const mondayOf = (day: string) => addDays(day, -weekdayIndex(day));

/** The days the view shows: whole weeks around the month, or the week of `anchor`. */
export function daysOf(view: CalendarView, anchor: string): string[] {
  const first = view === 'week' ? mondayOf(anchor) : mondayOf(addMonths(anchor, 0));
  const last =
    view === 'week' ? addDays(first, 6) : addDays(mondayOf(addDays(addMonths(anchor, 1), -1)), 6);
  // Counted, not compared as text, and never past the last day a date names (years end at
  // 9999, docs/api.md): the day after 9999-12-31 is no `YYYY-MM-DD`, and sorts before it.
  const end = Math.min(toMs(last), toMs(LAST_DAY));
  return Array.from({ length: (end - toMs(first)) / DAY_MS + 1 }, (_, i) => addDays(first, i));
}

/** The anchor of the previous (-1) or next (1) month or week. */
export const stepFrom = (view: CalendarView, anchor: string, direction: 1 | -1) =>
  view === 'week' ? addDays(anchor, 7 * direction) : addMonths(anchor, direction);

/**
 * The instants the view's days cover on the calendar of `zone`, as the posts list's bounds
 * (inclusive at both ends): from when the first day begins to one millisecond before the day
 * after the last one begins, so a day of 23 or 25 hours is covered exactly.
 */
export function rangeOf(view: CalendarView, anchor: string, zone: string) {
  const dayStart = (day: string) => dayStartIn(day, zone);
  const days = daysOf(view, anchor);
  const end = dayStart(addDays(days.at(-1) ?? anchor, 1)).getTime();
  return {
    from: dayStart(days[0] ?? anchor).toISOString(),
    to: new Date(end - 1).toISOString(),
  };
}

const partsOf = (day: string) => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return { year, month: MONTHS[month - 1] ?? '', date };
};

/** "Monday 4 May 2026". */
export function dayName(day: string) {
  const { year, month, date } = partsOf(day);
  return `${WEEKDAYS[weekdayIndex(day)]} ${date} ${month} ${year}`;
}

export const weekdayShort = (day: string) => (WEEKDAYS[weekdayIndex(day)] ?? '').slice(0, 3);
export const dateOf = (day: string) => partsOf(day).date;
export const WEEKDAY_NAMES = WEEKDAYS;

/** "May 2026", or "Week of Monday 4 May 2026". */
export function titleOf(view: CalendarView, anchor: string) {
  if (view === 'week') return `Week of ${dayName(mondayOf(anchor))}`;
  const { year, month } = partsOf(anchor);
  return `${month} ${year}`;
}
