/**
 * How the posts pages write days and times, for the tests that read them: one copy, so that a
 * change of wording fails every test that relies on it the same way.
 */
import type { Locator, Page } from 'playwright-core';

export const DAY_MS = 86_400_000;

/** How the calendar names a day (`YYYY-MM-DD`): "Monday 4 May 2026". */
export const dayName = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(date);
  return `${part({ weekday: 'long' })} ${date.getUTCDate()} ${part({ month: 'long' })} ${date.getUTCFullYear()}`;
};

/** The day `n` days after `day` (`YYYY-MM-DD`). */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** How the posts pages write a time, in the account's zone: "6 May 2026, 12:00". */
export const timeInWords = (at: string | number, zone = 'UTC') =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: zone,
  }).format(new Date(at));

/** A day's cell of the calendar, found by the name it is read out by. */
export const dayCell = (page: Page, day: string): Locator =>
  page.getByRole('listitem', { name: new RegExp(`^${dayName(day)}`) });
