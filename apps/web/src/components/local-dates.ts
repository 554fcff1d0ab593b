/**
 * Conversions between the API's UTC instants and the reader's wall clock. They use the
 * runtime's zone, so call them in the browser only (client components, after mount).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the instant on the reader's calendar. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The value an `<input type="datetime-local">` shows for the instant. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${localDay(iso)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What a `datetime-local` input holds, as a UTC ISO instant; null when it holds no time. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const d = new Date(value); // a string without a zone is read as local time
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The same wall-clock time as `iso`, on the reader's calendar day `day` (`YYYY-MM-DD`). */
export function onLocalDay(iso: string, day: string): string | null {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return null;
  const d = new Date(iso);
  d.setFullYear(year, month - 1, date);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * When the reader's calendar day `day` (`YYYY-MM-DD`) begins: its local midnight, or the first
 * time it has where a clock change skips midnight (Santiago's spring-forward day begins at 01:00).
 */
export function localDayStart(day: string): Date {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date);
}

/** Today on the reader's calendar. */
export const localToday = () => localDay(new Date().toISOString());
