/**
 * Conversions between the API's UTC instants and the wall clock of a named IANA zone (the
 * account's: the spec puts slots, recurrence and the calendar in it). The zone is always an
 * argument, never the runtime's, so the server and every reader's browser agree on each day.
 */

const DAY_MS = 86_400_000;

// Building a formatter is slow next to using one: one per zone (an account has one).
const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string, kind: string, options: Intl.DateTimeFormatOptions) {
  const key = `${kind} ${zone}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(kind === 'parts' ? 'en-US' : 'en-GB', {
      ...options,
      timeZone: zone,
    });
    cache.set(key, format);
  }
  return format;
}

/** The wall clock of the zone at `ms`, as if it were UTC (milliseconds dropped). */
function wallOf(ms: number, zone: string): number {
  const parts = formatter(zone, 'parts', {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
}

/** How far the zone's clock is ahead of UTC at `ms`. */
const offsetAt = (ms: number, zone: string) => wallOf(ms, zone) - Math.floor(ms / 1000) * 1000;

/**
 * The instant the zone's clock shows `wall` (a wall time written as UTC milliseconds). Where
 * clocks go back it is the earlier of the two; where they skip it (Berlin's 02:30 in spring,
 * Santiago's midnight) it is as far past the skip as `wall` is, as the clock moved on (03:30).
 */
function instantOf(wall: number, zone: string): number {
  // The offsets a day either side: a zone changes its clock at most once in two days.
  const before = wall - offsetAt(wall - DAY_MS, zone);
  const after = wall - offsetAt(wall + DAY_MS, zone);
  const valid = [before, after].filter((ms) => wallOf(ms, zone) === wall);
  return valid.length > 0 ? Math.min(...valid) : before;
}

const isoOfWall = (wall: number) => new Date(wall).toISOString();
/** The midnight of `day` (`YYYY-MM-DD`, a real day) as a wall time, plus `time` ms; else NaN. */
function wallOfDay(day: string, time = 0) {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
  return Number.isNaN(ms) || isoOfWall(ms).slice(0, 10) !== day ? Number.NaN : ms + time;
}

/** `YYYY-MM-DD` of the instant on the zone's calendar. */
export const dayIn = (iso: string, zone: string) =>
  isoOfWall(wallOf(Date.parse(iso), zone)).slice(0, 10);

/** Today on the zone's calendar. */
export const todayIn = (zone: string, now = Date.now()) => dayIn(new Date(now).toISOString(), zone);

/** The value an `<input type="datetime-local">` shows for the instant in the zone. */
export const inputIn = (iso: string, zone: string) =>
  isoOfWall(wallOf(Date.parse(iso), zone)).slice(0, 16);

/** What a `datetime-local` input holds, read in the zone, as a UTC ISO instant; null if no time. */
export function fromInputIn(value: string, zone: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [, day = '', hours, minutes, seconds = '0'] = match;
  const time = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
  const wall = wallOfDay(day, time);
  if (Number.isNaN(wall) || time >= DAY_MS) return null;
  return new Date(instantOf(wall, zone)).toISOString();
}

/** The same wall-clock time as `iso` in the zone, on the zone's calendar day `day`. */
export function onDayIn(iso: string, day: string, zone: string): string | null {
  const ms = Date.parse(iso);
  const wall = wallOfDay(day);
  if (Number.isNaN(ms) || Number.isNaN(wall)) return null;
  // The time of day to the second, then the instant's own milliseconds (the wall drops them).
  const time = wallOf(ms, zone) % DAY_MS;
  return new Date(instantOf(wall + time, zone) + (ms % 1000)).toISOString();
}

/**
 * When the zone's calendar day `day` (`YYYY-MM-DD`) begins: its midnight, or the first time it
 * has where a clock change skips midnight (Santiago's spring-forward day begins at 01:00).
 */
export const dayStartIn = (day: string, zone: string) => new Date(instantOf(wallOfDay(day), zone));

/** "17:05": the clock time of the instant in the zone. */
export const timeIn = (iso: string, zone: string) =>
  formatter(zone, 'time', { hour: '2-digit', minute: '2-digit' }).format(Date.parse(iso));

/** "17 May 2026, 17:05": the instant's date and time in the zone. */
export const dateTimeIn = (iso: string, zone: string) =>
  formatter(zone, 'dateTime', { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(iso));
