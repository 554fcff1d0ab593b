import { hashPassword, verifyPassword, verifyTotp } from '@chorus/auth';
import { eq, sql, users, type Db } from '@chorus/db';
import { unsealTotpSecret } from './two-factor';

/** Why a login was refused; `code_required` asks the sign-in page for the TOTP step. */
export type LoginFailure = 'invalid_credentials' | 'code_required' | 'invalid_code';

export class LoginError extends Error {
  override readonly name = 'LoginError';
  constructor(readonly reason: LoginFailure) {
    super(reason);
  }
}

/** Verified against when the email is unknown, so both cases take an argon2 verification. */
let decoyHash: Promise<string> | undefined;

/**
 * Dashboard login (decisions §9): email and password (argon2id), then a TOTP code when the
 * user turned two-factor authentication on. Success records `lastLogin`.
 */
export async function verifyDashboardLogin(opts: {
  db: Db;
  email: string;
  password: string;
  code?: string;
}) {
  const { db, email, password, code } = opts;
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!user) {
    decoyHash ??= hashPassword('decoy password, never used');
    await verifyPassword(await decoyHash, password);
    throw new LoginError('invalid_credentials');
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new LoginError('invalid_credentials');
  }
  let totpLastStep = user.totpLastStep;
  if (user.twoFactorEnabled && user.totpSecret) {
    if (!code) throw new LoginError('code_required');
    const step = verifyTotp(unsealTotpSecret(user.id, user.totpSecret), code, {
      after: user.totpLastStep,
    });
    if (step === null) throw new LoginError('invalid_code');
    totpLastStep = step;
  }
  await db
    .update(users)
    .set({ lastLoginAt: sql`now()`, totpLastStep })
    .where(eq(users.id, user.id));
  return {
    userId: user.id,
    accountId: user.accountId,
    role: user.role,
    name: user.name,
    email: user.email,
    sessionGeneration: user.sessionGeneration,
  };
}
