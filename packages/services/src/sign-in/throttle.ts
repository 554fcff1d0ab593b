import { and, eq, gt, inArray, max, signInThrottles, sql, type Db } from '@chorus/db';

/** A limit on failures: `limit` within `windowMs` refuses the key for `blockMs`. */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
  blockMs: number;
}

const MINUTE = 60_000;

/** Issue 8 / docs/security.md: the figures of the sign-in throttles. */
export const SIGN_IN_RULES = {
  /** One account from one address: 10 failures in 15 minutes refuse the pair for 15 minutes. */
  pair: { limit: 10, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** One address, whatever the account: 100 failures in an hour block it for an hour. */
  address: { limit: 100, windowMs: 60 * MINUTE, blockMs: 60 * MINUTE },
  /** Wrong codes at the two-factor step: the fifth restarts the sign-in. */
  code: { limit: 5, windowMs: 15 * MINUTE, blockMs: 0 },
} satisfies Record<string, ThrottleRule>;

/** When the latest block among `keys` ends, or null when none is blocked now. */
export async function blockedUntil(db: Db, keys: string[]): Promise<Date | null> {
  const [row] = await db
    .select({ until: max(signInThrottles.blockedUntil) })
    .from(signInThrottles)
    .where(and(inArray(signInThrottles.key, keys), gt(signInThrottles.blockedUntil, sql`now()`)));
  return row?.until ?? null;
}

/**
 * Counts one failure for `key` in one statement (several instances may count at once) and
 * answers the failures in the current window.
 */
export async function recordFailure(db: Db, key: string, rule: ThrottleRule): Promise<number> {
  const t = signInThrottles;
  const ms = (value: number) => sql`(${value}::integer * interval '1 millisecond')`;
  const expired = sql`${t.windowStartedAt} <= now() - ${ms(rule.windowMs)}`;
  const failures = sql`case when ${expired} then 1 else ${t.failures} + 1 end`;
  const [row] = await db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${expired} then now() else ${t.windowStartedAt} end`,
        ...(rule.blockMs > 0 && {
          blockedUntil: sql`case when ${failures} >= ${rule.limit}::integer
            then now() + ${ms(rule.blockMs)} else ${t.blockedUntil} end`,
        }),
      },
    })
    .returning({ failures: t.failures });
  return row?.failures ?? 1;
}

/** Forgets the failures of `key` (a success, or a restarted sign-in). */
export async function clearFailures(db: Db, key: string) {
  await db.delete(signInThrottles).where(eq(signInThrottles.key, key));
}
