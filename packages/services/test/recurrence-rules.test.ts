import { describe, expect, it } from 'vitest';
import { seriesOf } from '../src/posts/recurrence';

/** A series' occurrences are wall-clock times in the account's zone, from the post's start. */
const iso = (dates: (Date | null)[]) => dates.map((d) => d?.toISOString() ?? null);
const local = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);

describe('seriesOf', () => {
  it('keeps a weekly Monday 09:00 in Europe/Berlin across the autumn and spring changes', () => {
    // Monday 19 October 2026, 09:00 CEST; clocks go back on Sunday 25 October.
    const start = new Date('2026-10-19T07:00:00Z');
    const series = seriesOf('FREQ=WEEKLY;BYDAY=MO', start, 'Europe/Berlin');
    const next = series.upcoming(start, 3);
    expect(iso(next)).toEqual([
      '2026-10-19T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
    ]);
    expect(next.map((at) => local(at, 'Europe/Berlin'))).toEqual([
      'Mon 09:00',
      'Mon 09:00',
      'Mon 09:00',
    ]);
    // Spring: Sunday 29 March 2027 is no Monday, 30 March is already in summer time.
    const spring = seriesOf('FREQ=WEEKLY', new Date('2027-03-22T08:00:00Z'), 'Europe/Berlin');
    expect(iso(spring.upcoming(new Date('2027-03-22T08:00:00Z'), 2))).toEqual([
      '2027-03-22T08:00:00.000Z',
      '2027-03-29T07:00:00.000Z',
    ]);
  });

  it('keeps a weekly 09:00 in America/New_York across its change (8 March 2026)', () => {
    const start = new Date('2026-03-02T14:00:00Z'); // Monday 09:00 EST
    const series = seriesOf('FREQ=WEEKLY;COUNT=3', start, 'America/New_York');
    expect(iso(series.upcoming(start, 5))).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
    ]);
  });

  it('moves a daily time the spring change skips an hour later, and takes a repeated one once', () => {
    // 02:30 does not exist in Berlin on 29 March 2026.
    const series = seriesOf('FREQ=DAILY', new Date('2026-03-28T01:30:00Z'), 'Europe/Berlin');
    const days = series.upcoming(new Date('2026-03-28T01:30:00Z'), 3);
    expect(days.map((at) => local(at, 'Europe/Berlin'))).toEqual([
      'Sat 02:30',
      'Sun 03:30',
      'Mon 02:30',
    ]);
    // 02:30 happens twice on 25 October 2026: one occurrence.
    const autumn = seriesOf('FREQ=DAILY', new Date('2026-10-24T00:30:00Z'), 'Europe/Berlin');
    const around = autumn.upcoming(new Date('2026-10-24T00:30:00Z'), 3);
    expect(new Set(around.map((at) => at.toISOString().slice(0, 10))).size).toBe(3);
  });

  it('finds only the latest occurrence a downtime missed', () => {
    const start = new Date('2026-01-01T09:00:00Z');
    const series = seriesOf('FREQ=DAILY', start, 'UTC');
    const latest = series.latestBetween(start, new Date('2026-01-05T12:00:00Z'));
    expect(latest?.toISOString()).toBe('2026-01-05T09:00:00.000Z');
    expect(
      series.latestBetween(new Date('2026-01-05T09:00:01Z'), new Date('2026-01-05T12:00:00Z')),
    ).toBeNull();
  });

  it('ends at COUNT, at an UNTIL instant, and after the whole local day of an UNTIL date', () => {
    const start = new Date('2026-01-05T08:00:00Z'); // Monday 09:00 in Berlin
    const counted = seriesOf('FREQ=DAILY;COUNT=2', start, 'Europe/Berlin');
    expect(counted.upcoming(start, 5)).toHaveLength(2);
    expect(counted.firstFrom(new Date('2026-01-07T00:00:00Z'))).toBeNull();
    const until = seriesOf('FREQ=DAILY;UNTIL=20260106T080000Z', start, 'Europe/Berlin');
    expect(until.upcoming(start, 5)).toHaveLength(2);
    const untilDate = seriesOf('FREQ=DAILY;UNTIL=20260107', start, 'Europe/Berlin');
    expect(iso(untilDate.upcoming(start, 5)).at(-1)).toBe('2026-01-07T08:00:00.000Z');
  });

  it('reads INTERVAL and a monthly numbered weekday', () => {
    const start = new Date('2026-01-30T17:00:00Z'); // the last Friday of January
    const series = seriesOf('FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR', start, 'UTC');
    expect(iso(series.upcoming(start, 3))).toEqual([
      '2026-01-30T17:00:00.000Z',
      '2026-03-27T17:00:00.000Z',
      '2026-05-29T17:00:00.000Z',
    ]);
  });
});
