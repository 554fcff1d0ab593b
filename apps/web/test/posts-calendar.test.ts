import type { Principal } from '@chorus/auth';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  daysOf,
  instantsOf,
  isDay,
  stepFrom,
  titleOf,
} from '../src/app/dashboard/posts/calendar/calendar-grid';
import { fromLocalInput, onLocalDay, toLocalInput } from '../src/components/local-dates';
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

  it('fetches a window that holds the shown days in every time zone', () => {
    expect(instantsOf('week', '2026-05-17')).toEqual({
      from: '2026-05-10T00:00:00.000Z',
      to: '2026-05-19T00:00:00.000Z',
    });
  });
});

describe('local date-times, in whatever zone the process runs', () => {
  it('round-trips a datetime-local value and keeps the time of day when moving a day', () => {
    const iso = fromLocalInput('2026-05-17T10:30');
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso ?? '')).toBe('2026-05-17T10:30');
    const moved = onLocalDay(iso ?? '', '2026-05-20') ?? '';
    expect(toLocalInput(moved)).toBe('2026-05-20T10:30');
    expect(fromLocalInput('')).toBeNull();
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
