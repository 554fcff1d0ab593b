import { parseSearch, searchField, type SearchParams } from '~/server/search-params';

/** The presets of the date-range picker, in days (each ending today, UTC). */
export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];

const SEARCH = {
  from: searchField.text(),
  to: searchField.text(),
  days: searchField.text(),
};
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` UTC days, today included (the stats' days are inclusive). */
export function lastDays(days: number, now = new Date()) {
  const from = new Date(now);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return { from: day(from), to: day(now) };
}

/**
 * The range the page's query asks for: a preset (`?days=7`), or custom days (`?from=&to=`)
 * that the procedure checks (a bad date or a range over 366 days is refused with a message);
 * without either, the last 30 days, as the API's default.
 */
export function rangeOf(params: SearchParams): { from: string; to: string; preset?: Preset } {
  const { from, to, days: asked } = parseSearch(params, SEARCH);
  if (from || to) return { from, to };
  const preset = PRESETS.find((days) => String(days) === asked) ?? 30;
  return { ...lastDays(preset), preset };
}
