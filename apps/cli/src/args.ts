import { inYearRange, ZScope, type Scope } from '@chorus/validators';
import { z } from 'zod';

/** A mistake in how the command was called: printed as a sentence with the usage. */
export class UsageError extends Error {}

const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `30d`, `12h`, `90m`, `2w` → the moment that far from `now`. */
export function parseExpiresIn(value: string, now = new Date()): Date {
  const match = /^(\d+)([mhdw])$/.exec(value.trim());
  if (!match)
    throw new UsageError(
      `--expires-in takes a number and a unit (m, h, d or w), such as 30d; got "${value}".`,
    );
  const [, amount = '0', unit = 'd'] = match;
  if (Number(amount) === 0) throw new UsageError('--expires-in must be longer than zero.');
  const at = new Date(now.getTime() + Number(amount) * UNITS[unit as keyof typeof UNITS]);
  // The API's own bound on an expiry (docs/api.md): past it the database or Date gives up.
  if (Number.isNaN(at.getTime()) || !inYearRange(at.toISOString())) {
    throw new UsageError(`--expires-in ${value} reaches past the year 9999; give a shorter time.`);
  }
  return at;
}

export function parseScopes(value: string): Scope[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError('--scopes needs at least one scope, such as read,write.');
  const unknown = names.filter((name) => !ZScope.safeParse(name).success);
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown scope ${unknown.join(', ')}. Scopes are: ${ZScope.options.join(', ')}.`,
    );
  }
  return names as Scope[];
}

export function parseEmail(value: string, flag: string): string {
  if (!z.email().safeParse(value).success)
    throw new UsageError(`${flag} must be an email address; got "${value}".`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}".`);
  }
  return value as T;
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required.`);
  return value;
}
