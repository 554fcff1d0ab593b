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

  it('reads a monthly rule mixing plain and numbered days, as RFC 5545 does (BYDAY=MO,2TU)', () => {
    const start = new Date('2026-11-30T09:00:00Z'); // a Monday
    const series = seriesOf('FREQ=MONTHLY;BYDAY=MO,2TU', start, 'UTC');
    // Every Monday of the month, and its second Tuesday (8 December).
    expect(iso(series.upcoming(start, 6))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-07T09:00:00.000Z',
      '2026-12-08T09:00:00.000Z',
      '2026-12-14T09:00:00.000Z',
      '2026-12-21T09:00:00.000Z',
      '2026-12-28T09:00:00.000Z',
    ]);
    const counted = seriesOf('FREQ=MONTHLY;BYDAY=-1FR,WE;COUNT=3', start, 'UTC');
    expect(iso(counted.upcoming(start, 5))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-02T09:00:00.000Z',
      '2026-12-09T09:00:00.000Z',
    ]);
  });

  it('starts at its start even on a day the rule would not pick, which COUNT counts', () => {
    const start = new Date('2026-11-30T09:00:00Z'); // a Monday
    const tuesdays = seriesOf('FREQ=WEEKLY;BYDAY=TU', start, 'UTC');
    expect(iso(tuesdays.upcoming(start, 3))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-01T09:00:00.000Z',
      '2026-12-08T09:00:00.000Z',
    ]);
    expect(tuesdays.firstFrom(start)?.toISOString()).toBe(start.toISOString());
    const hourLater = new Date('2026-11-30T10:00:00Z');
    expect(tuesdays.latestBetween(start, hourLater)?.toISOString()).toBe(start.toISOString());
    expect(iso(tuesdays.between(new Date('2026-11-29T00:00:00Z'), hourLater))).toEqual([
      start.toISOString(),
    ]);
    const lastFriday = seriesOf('FREQ=MONTHLY;BYDAY=-1FR', start, 'UTC');
    expect(iso(lastFriday.upcoming(start, 3))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-25T09:00:00.000Z',
      '2027-01-29T09:00:00.000Z',
    ]);
    // The start is the first of COUNT's occurrences.
    const twice = seriesOf('FREQ=WEEKLY;BYDAY=TU;COUNT=2', start, 'UTC');
    expect(iso(twice.upcoming(start, 5))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-01T09:00:00.000Z',
    ]);
    const once = seriesOf('FREQ=WEEKLY;BYDAY=TU;COUNT=1', start, 'UTC');
    expect(iso(once.upcoming(start, 5))).toEqual(['2026-11-30T09:00:00.000Z']);
    expect(once.latestBetween(start, new Date('2027-01-01T00:00:00Z'))).toEqual(start);
    expect(once.firstFrom(hourLater)).toBeNull();
  });

  it('tells a rule whose UNTIL comes before its start, the UNTIL date taking in the whole day', () => {
    const start = new Date('2026-11-30T09:00:00Z');
    expect(seriesOf('FREQ=DAILY;UNTIL=20200101', start, 'UTC').endsBeforeStart).toBe(true);
    expect(seriesOf('FREQ=DAILY;UNTIL=20261130T080000Z', start, 'UTC').endsBeforeStart).toBe(true);
    expect(seriesOf('FREQ=DAILY;UNTIL=20261130', start, 'UTC').endsBeforeStart).toBe(false);
    expect(seriesOf('FREQ=DAILY;COUNT=1', start, 'UTC').endsBeforeStart).toBe(false);
    expect(seriesOf('FREQ=DAILY', start, 'UTC').endsBeforeStart).toBe(false);
  });

  it('answers from a start near the time asked, as it would walking from the first occurrence', () => {
    // COUNT makes seriesOf walk from the series' start; well under 1,000 occurrences in, the
    // same rule without it must give the same occurrences from its nearer start.
    const rules = [
      'FREQ=DAILY',
      'FREQ=DAILY;INTERVAL=3',
      'FREQ=DAILY;BYDAY=MO,WE',
      'FREQ=WEEKLY',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,FR',
      'FREQ=WEEKLY;INTERVAL=5',
      'FREQ=MONTHLY',
      'FREQ=MONTHLY;INTERVAL=2',
      'FREQ=MONTHLY;BYDAY=-1FR',
      'FREQ=MONTHLY;INTERVAL=3;BYDAY=1MO',
      'FREQ=MONTHLY;BYDAY=2TU,4TU',
      'FREQ=MONTHLY;BYDAY=MO,2TU',
      'FREQ=WEEKLY;BYDAY=SU',
    ];
    const starts = [
      ['2026-01-31T08:30:00Z', 'Europe/Berlin'],
      ['2026-03-07T15:00:00Z', 'America/New_York'],
      ['2025-12-30T23:45:00Z', 'UTC'],
      ['2026-04-05T01:00:00Z', 'Pacific/Auckland'],
    ] as const;
    const daysLater = [0, 1, 9, 40, 200, 500, 800];
    let compared = 0;
    for (const rule of rules) {
      for (const [first, zone] of starts) {
        const start = new Date(first);
        const near = seriesOf(rule, start, zone);
        const walked = seriesOf(`${rule};COUNT=1000`, start, zone);
        for (const days of daysLater) {
          const at = new Date(start.getTime() + days * 86_400_000 + 3_600_000);
          const label = `${rule} from ${first} ${zone}, ${days} days on`;
          expect(iso(near.upcoming(at, 6)), label).toEqual(iso(walked.upcoming(at, 6)));
          const back = new Date(at.getTime() - 20 * 86_400_000);
          expect(near.latestBetween(back, at)?.toISOString(), label).toBe(
            walked.latestBetween(back, at)?.toISOString(),
          );
          const ahead = new Date(at.getTime() + 56 * 86_400_000);
          expect(iso(near.between(at, ahead)), label).toEqual(iso(walked.between(at, ahead)));
          compared++;
        }
      }
    }
    expect(compared).toBe(rules.length * starts.length * daysLater.length);
  });

  it('reads a DAILY rule of whole weeks whose BYDAY misses its start as its start alone, at once', () => {
    // Every seventh day from a Monday is a Monday: such a rule picks no day of its own. rrule
    // stops only at a day it picks, so each of these walked to the year 9999 (seconds apiece).
    const start = new Date('2026-11-30T09:00:00Z'); // a Monday
    const later = new Date('2027-11-30T09:00:00Z');
    const began = performance.now();
    for (const rule of [
      'FREQ=DAILY;INTERVAL=7;BYDAY=TU',
      'FREQ=DAILY;INTERVAL=14;BYDAY=TU,WE;COUNT=3',
      'FREQ=DAILY;INTERVAL=7;BYDAY=SU;UNTIL=20261201',
    ]) {
      const series = seriesOf(rule, start, 'Europe/Berlin');
      expect(iso(series.upcoming(start, 5)), rule).toEqual([start.toISOString()]);
      expect(series.firstFrom(new Date(start.getTime() + 1)), rule).toBeNull();
      expect(series.latestBetween(start, later), rule).toEqual(start);
      expect(series.between(start, later), rule).toEqual([]);
    }
    expect(performance.now() - began).toBeLessThan(1_000);
    // Naming the start's weekday, BYDAY says nothing: every visit is that day.
    const mondays = seriesOf('FREQ=DAILY;INTERVAL=14;BYDAY=MO,TU;COUNT=3', start, 'UTC');
    expect(iso(mondays.upcoming(start, 5))).toEqual(
      iso(seriesOf('FREQ=DAILY;INTERVAL=14;COUNT=3', start, 'UTC').upcoming(start, 5)),
    );
    expect(iso(mondays.upcoming(start, 5))).toEqual([
      '2026-11-30T09:00:00.000Z',
      '2026-12-14T09:00:00.000Z',
      '2026-12-28T09:00:00.000Z',
    ]);
  });

  it('finds a two-year-old daily series’ next occurrences', () => {
    const series = seriesOf('FREQ=DAILY', new Date('2024-11-01T09:00:00Z'), 'Europe/Berlin');
    const at = new Date('2026-11-29T12:00:00Z');
    expect(series.firstFrom(at)?.toISOString()).toBe('2026-11-30T09:00:00.000Z');
    expect(series.between(at, new Date('2026-12-02T12:00:00Z'))).toHaveLength(3);
  });
});
