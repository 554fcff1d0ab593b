import { describe, expect, it } from 'vitest';
import {
  dateTimeIn,
  dayIn,
  dayStartIn,
  fromInputIn,
  inputIn,
  onDayIn,
  timeIn,
  todayIn,
} from '../src/components/zone-dates';

const hoursOf = (day: string, next: string, zone: string) =>
  (dayStartIn(next, zone).getTime() - dayStartIn(day, zone).getTime()) / 3_600_000;

describe('a day on the account’s calendar', () => {
  it('is the zone’s, not UTC’s, on both sides of UTC', () => {
    // 23:30 UTC on 16 May is the 17th in Tokyo (UTC+9) and still the 16th in New York (UTC−4).
    const iso = '2026-05-16T23:30:00.000Z';
    expect(dayIn(iso, 'Asia/Tokyo')).toBe('2026-05-17');
    expect(dayIn(iso, 'UTC')).toBe('2026-05-16');
    expect(dayIn('2026-05-17T02:30:00.000Z', 'America/New_York')).toBe('2026-05-16');
    expect(todayIn('Asia/Tokyo', Date.parse(iso))).toBe('2026-05-17');
    expect(todayIn('Pacific/Pago_Pago', Date.parse(iso))).toBe('2026-05-16');
    expect(timeIn(iso, 'Asia/Tokyo')).toBe('08:30');
    expect(timeIn(iso, 'America/New_York')).toBe('19:30');
    expect(dateTimeIn(iso, 'Asia/Tokyo')).toBe('17 May 2026, 08:30');
  });

  it('begins at midnight, also where midnight is in another UTC day', () => {
    expect(dayStartIn('2026-05-17', 'Asia/Tokyo').toISOString()).toBe('2026-05-16T15:00:00.000Z');
    expect(dayStartIn('2026-05-17', 'America/New_York').toISOString()).toBe(
      '2026-05-17T04:00:00.000Z',
    );
    expect(dayStartIn('2026-05-17', 'Pacific/Kiritimati').toISOString()).toBe(
      '2026-05-16T10:00:00.000Z',
    );
  });

  it('has 23 or 25 hours in Berlin when the clocks change', () => {
    expect(hoursOf('2026-03-29', '2026-03-30', 'Europe/Berlin')).toBe(23);
    expect(hoursOf('2026-10-25', '2026-10-26', 'Europe/Berlin')).toBe(25);
    expect(hoursOf('2026-05-17', '2026-05-18', 'Europe/Berlin')).toBe(24);
    expect(dayStartIn('2026-03-30', 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T22:00:00.000Z',
    );
  });

  it('begins at 01:00 where the clock skips midnight (Santiago, 6 September 2026)', () => {
    const start = dayStartIn('2026-09-06', 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn(start.toISOString(), 'America/Santiago')).toBe('2026-09-06');
    expect(inputIn(start.toISOString(), 'America/Santiago')).toBe('2026-09-06T01:00');
    // The millisecond before is the 5th: that day ends at 23:59:59.999 (UTC−4).
    expect(dayIn('2026-09-06T03:59:59.999Z', 'America/Santiago')).toBe('2026-09-05');
    expect(hoursOf('2026-09-06', '2026-09-07', 'America/Santiago')).toBe(23);
  });
});

describe('a datetime-local value read in the account’s zone', () => {
  it('is that wall-clock time there, whatever zone the process runs in', () => {
    expect(fromInputIn('2026-05-17T09:00', 'Asia/Tokyo')).toBe('2026-05-17T00:00:00.000Z');
    expect(fromInputIn('2026-05-17T09:00', 'America/New_York')).toBe('2026-05-17T13:00:00.000Z');
    expect(fromInputIn('2026-01-17T09:00', 'America/New_York')).toBe('2026-01-17T14:00:00.000Z');
    expect(fromInputIn('2026-05-17T09:00:30', 'UTC')).toBe('2026-05-17T09:00:30.000Z');
    expect(inputIn('2026-05-17T00:00:00.000Z', 'Asia/Tokyo')).toBe('2026-05-17T09:00');
    expect(inputIn('2026-05-17T00:00:00.000Z', 'America/New_York')).toBe('2026-05-16T20:00');
  });

  it('round-trips every quarter hour of a day', () => {
    for (const zone of ['Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'UTC']) {
      for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
        const value = `2026-05-17T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        expect(inputIn(fromInputIn(value, zone) ?? '', zone), `${zone} ${value}`).toBe(value);
      }
    }
  });

  it('takes the earlier 02:30 when clocks go back, and moves on past a skipped time', () => {
    // Berlin, 25 October 2026: 02:30 happens twice, first at UTC+2.
    expect(fromInputIn('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    // 29 March 2026: 02:30 does not exist; the clock read 03:30 an hour after 01:30.
    expect(fromInputIn('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(inputIn('2026-03-29T01:30:00.000Z', 'Europe/Berlin')).toBe('2026-03-29T03:30');
    // Santiago's skipped midnight reads as 01:00.
    expect(fromInputIn('2026-09-06T00:00', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
  });

  it('is null when it holds no real time', () => {
    for (const value of ['', '2026-05-17', '2026-02-30T10:00', '2026-05-17T24:00', 'soon']) {
      expect(fromInputIn(value, 'UTC'), value).toBeNull();
    }
  });
});

describe('moving to another day on the account’s calendar', () => {
  it('keeps the wall-clock time there, across a clock change', () => {
    // 10:30 in Berlin on Friday 27 March (UTC+1), moved to Monday 30 March (UTC+2).
    expect(onDayIn('2026-03-27T09:30:00.000Z', '2026-03-30', 'Europe/Berlin')).toBe(
      '2026-03-30T08:30:00.000Z',
    );
    // 08:30 on the 17th in Tokyo is the 16th in UTC: the 20th is Tokyo's 20th.
    expect(onDayIn('2026-05-16T23:30:00.000Z', '2026-05-20', 'Asia/Tokyo')).toBe(
      '2026-05-19T23:30:00.000Z',
    );
    // An instant's milliseconds stay.
    expect(onDayIn('2026-05-17T10:30:00.250Z', '2026-05-18', 'UTC')).toBe(
      '2026-05-18T10:30:00.250Z',
    );
    expect(onDayIn('2026-05-17T10:30:00.000Z', 'not a day', 'UTC')).toBeNull();
  });
});
