import type { Principal } from '@chorus/auth';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  daysOf,
  isDay,
  rangeOf,
  stepFrom,
  titleOf,
} from '../src/app/dashboard/posts/calendar/calendar-grid';
import { dayIn } from '../src/components/zone-dates';
import { mayCall } from '../src/server/may-call';

describe('the calendar grid', () => {
  it('shows whole ISO weeks around a month, Monday first', () => {
    const days = daysOf('month', '2026-05-17');
    expect(days[0]).toBe('2026-04-27');
    expect(days.at(-1)).toBe('2026-05-31');
    expect(days).toHaveLength(35);
    expect(daysOf('week', '2026-05-17')).toEqual([
      '2026-05-11',
      '2026-05-12',
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
    ]);
  });

  it('shows the last month there is up to its last day, 9999-12-31 (no later day has a date)', () => {
    const days = daysOf('month', '9999-12-15');
    expect(days[0]).toBe('9999-11-29');
    expect(days.slice(-2)).toEqual(['9999-12-30', '9999-12-31']);
    expect(days).toHaveLength(33);
  });

  it('steps by month and week, across years and from month ends', () => {
    expect(stepFrom('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(stepFrom('month', '2026-01-15', -1)).toBe('2025-12-01');
    expect(stepFrom('week', '2026-12-29', 1)).toBe('2027-01-05');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-01');
    expect(titleOf('month', '2026-05-17')).toBe('May 2026');
    expect(titleOf('week', '2026-05-17')).toBe('Week of Monday 11 May 2026');
  });

  it('takes only real days from the address', () => {
    expect(isDay('2026-02-28')).toBe(true);
    for (const bad of ['2026-02-30', '2026-2-1', '', 'today', '2026-02-28T00:00']) {
      expect(isDay(bad)).toBe(false);
    }
  });
});

describe('the instants a view asks the posts list for', () => {
  // In the account's zone, given by name: the process's own zone plays no part.
  let zone = 'UTC';
  function inZone(name: string, check: () => void) {
    zone = name;
    check();
  }
  const range = (view: 'month' | 'week', anchor: string) => rangeOf(view, anchor, zone);

  it('are the shown days exactly, from the first midnight to a millisecond before the next', () => {
    inZone('Asia/Tokyo', () => {
      // Monday 11 to Sunday 17 May 2026 in Tokyo (UTC+9).
      expect(range('week', '2026-05-17')).toEqual({
        from: '2026-05-10T15:00:00.000Z',
        to: '2026-05-17T14:59:59.999Z',
      });
      // 27 April to 31 May: the whole weeks around May.
      expect(range('month', '2026-05-17')).toEqual({
        from: '2026-04-26T15:00:00.000Z',
        to: '2026-05-31T14:59:59.999Z',
      });
    });
    inZone('UTC', () => {
      expect(range('week', '2026-05-17')).toEqual({
        from: '2026-05-11T00:00:00.000Z',
        to: '2026-05-17T23:59:59.999Z',
      });
    });
    // The far ends of the zones: UTC+14 and UTC−11.
    inZone('Pacific/Kiritimati', () => {
      expect(range('week', '2026-05-17').from).toBe('2026-05-10T10:00:00.000Z');
    });
    inZone('Pacific/Pago_Pago', () => {
      expect(range('week', '2026-05-17').to).toBe('2026-05-18T10:59:59.999Z');
    });
  });

  it('follow the clock changes inside the range (a week of 167 or 169 hours)', () => {
    const hours = ({ from, to }: { from: string; to: string }) =>
      (Date.parse(to) + 1 - Date.parse(from)) / 3_600_000;
    inZone('Europe/Paris', () => {
      // Summer time from Sunday 29 March 2026: midnight of the 23rd is UTC+1, of the 30th UTC+2.
      const spring = range('week', '2026-03-25');
      expect(spring).toEqual({
        from: '2026-03-22T23:00:00.000Z',
        to: '2026-03-29T21:59:59.999Z',
      });
      expect(hours(spring)).toBe(167);
      // Back to winter time on Sunday 25 October: the week ending that day has 169 hours.
      expect(hours(range('week', '2026-10-21'))).toBe(169);
    });
    // Where the clock skips midnight (Santiago, 6 September 2026), that day begins at 01:00.
    inZone('America/Santiago', () => {
      expect(range('week', '2026-09-07').from).toBe('2026-09-07T03:00:00.000Z');
      expect(range('week', '2026-09-01').to).toBe('2026-09-07T02:59:59.999Z');
    });
  });

  it('hold every post the grid shows and none it does not, at each edge', () => {
    inZone('America/New_York', () => {
      const { from, to } = range('week', '2026-05-17');
      const days = daysOf('week', '2026-05-17');
      for (const [iso, shown] of [
        [from, true],
        [to, true],
        [new Date(Date.parse(from) - 1).toISOString(), false],
        [new Date(Date.parse(to) + 1).toISOString(), false],
      ] as const) {
        expect(days.includes(dayIn(iso, zone)), iso).toBe(shown);
        expect(iso >= from && iso <= to, iso).toBe(shown);
      }
    });
  });
});

describe('mayCall', () => {
  const principal = (role: 'admin' | 'user', scopes: string[]) =>
    ({ role, scopes }) as unknown as Principal;

  it('reads the scopes and the role tier the procedure declares', () => {
    expect(mayCall(principal('user', ['content:write']), 'posts.update')).toBe(true);
    expect(mayCall(principal('admin', ['content:read']), 'posts.update')).toBe(false);
    expect(mayCall(principal('user', ['read']), 'users.list')).toBe(false);
    expect(mayCall(principal('admin', ['read']), 'users.list')).toBe(true);
  });
});
