import {
  controlProblem,
  escapeControls,
  inYearRange,
  ZCreateUser,
  ZScope,
  type Scope,
} from '@chorus/validators';
import type { z } from 'zod';

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

/**
 * `value` checked by the API's own schema for the field (validators), so that the CLI stores
 * nothing the API would refuse: an admin whose password is longer than sign-in reads could
 * never sign in, and a name with a line break splits the CLI's own tables. Returns what the
 * schema gives (a name trimmed, as the API stores it).
 */
export function checked<T>(schema: z.ZodType<T, string>, value: string, flag: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? 'Invalid value.';
  throw new UsageError(`${flag}: ${message}`);
}

/**
 * The API's rule for any text at its edge (validators' `controlProblem`): no NUL or other control
 * character (an ANSI escape among them) in any option, whatever its field.
 */
export function refuseControls(flags: Record<string, unknown>) {
  for (const [name, value] of Object.entries(flags)) {
    const problem = typeof value === 'string' ? controlProblem(value) : null;
    if (problem) throw new UsageError(`--${name}: ${problem}`);
  }
}

export function parseEmail(value: string, flag: string): string {
  if (!ZCreateUser.shape.email.safeParse(value).success)
    // Escaped: what was typed is echoed, and it may hold a line break or an escape sequence.
    throw new UsageError(`${flag} must be an email address; got "${escapeControls(value)}".`);
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
