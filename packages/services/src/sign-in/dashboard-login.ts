import { hashPassword, verifyPassword, verifyTotp } from '@chorus/auth';
import { and, eq, isNull, lt, or, sql, users, type Db } from '@chorus/db';
import { blockedUntil, clearFailures, recordFailure, SIGN_IN_RULES } from './throttle';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '@chorus/validators';
import { unsealTotpSecret } from './two-factor';

/** A TOTP code is 6 digits; with spaces a user might type, still short. */
const MAX_CODE_LENGTH = 32;

/**
 * Why a login was refused: `code_required` asks the sign-in page for the TOTP step;
 * `too_many_codes` sends it back to the password step; `throttled` says when to retry.
 */
export type LoginFailure =
  'invalid_credentials' | 'code_required' | 'invalid_code' | 'too_many_codes' | 'throttled';

export class LoginError extends Error {
  override readonly name = 'LoginError';
  constructor(
    readonly reason: LoginFailure,
    /** For `throttled`: when the refusal ends. */
    readonly retryAt?: Date,
  ) {
    super(reason);
  }
}

/** Verified against when the email is unknown, so both cases take an argon2 verification. */
let decoyHash: Promise<string> | undefined;

/**
 * Dashboard login (docs/security.md): email and password (argon2id), then a TOTP code when the
 * user turned two-factor authentication on. Success records `lastLogin`. Failures are counted
 * per (account, client address) and per address; over a limit the pair or address is refused
 * before any password is checked (docs/security.md).
 */
export async function verifyDashboardLogin(opts: {
  db: Db;
  email: string;
  password: string;
  code?: string;
  /** The client's address, as the deployment trusts it (`clientIp`). */
  clientIp?: string;
}) {
  const { db, password, code } = opts;
  // PostgreSQL text cannot hold U+0000 (the throttle keys are stored): no real login has one.
  // Nor is any email or password longer than an account can have: refused before the database
  // (the email is part of a throttle key) and before argon2 (whose cost grows with the input).
  if (
    opts.email.length > MAX_EMAIL_LENGTH ||
    password.length > MAX_PASSWORD_LENGTH ||
    (code ?? '').length > MAX_CODE_LENGTH ||
    `${opts.email}${password}${code ?? ''}`.includes('\0')
  ) {
    throw new LoginError('invalid_credentials');
  }
  const email = opts.email.trim().toLowerCase();
  const ip = opts.clientIp ?? 'unknown';
  const pairKey = `pair:${email}|${ip}`;
  const addressKey = `address:${ip}`;
  const until = await blockedUntil(db, [pairKey, addressKey]);
  if (until) throw new LoginError('throttled', until);
  const fail = async (reason: LoginFailure): Promise<never> => {
    await recordFailure(db, pairKey, SIGN_IN_RULES.pair);
    await recordFailure(db, addressKey, SIGN_IN_RULES.address);
    throw new LoginError(reason);
  };

  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  if (!user) {
    decoyHash ??= hashPassword('decoy password, never used');
    await verifyPassword(await decoyHash, password);
    return fail('invalid_credentials');
  }
  if (!(await verifyPassword(user.passwordHash, password))) return fail('invalid_credentials');
  let step: number | null = null;
  if (user.twoFactorEnabled && user.totpSecret) {
    if (!code) throw new LoginError('code_required');
    step = verifyTotp(unsealTotpSecret(user.id, user.totpSecret), code, {
      after: user.totpLastStep,
    });
    if (step === null) {
      const codeKey = `code:${user.id}`;
      if ((await recordFailure(db, codeKey, SIGN_IN_RULES.code)) >= SIGN_IN_RULES.code.limit) {
        await clearFailures(db, codeKey);
        return fail('too_many_codes');
      }
      return fail('invalid_code');
    }
  }
  // Consumes the code with a conditional update: of two sign-ins racing with one code, one wins.
  const [signedIn] = await db
    .update(users)
    .set({ lastLoginAt: sql`now()`, ...(step !== null && { totpLastStep: step }) })
    .where(
      and(
        eq(users.id, user.id),
        step === null ? undefined : or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
      ),
    )
    .returning({ id: users.id });
  if (!signedIn) return fail('invalid_code');
  await clearFailures(db, pairKey);
  if (step !== null) await clearFailures(db, `code:${user.id}`);
  return {
    userId: user.id,
    accountId: user.accountId,
    role: user.role,
    name: user.name,
    email: user.email,
    sessionGeneration: user.sessionGeneration,
  };
}
