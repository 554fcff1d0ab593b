import { generateTotpSecret, totpUri, verifyTotp, type Principal } from '@chorus/auth';
import { eq, users, type Db } from '@chorus/db';
import { AppError, notFound } from '../shared/errors';
import { seal, unseal } from '../integrations/encryption';

/**
 * Two-factor authentication with TOTP (RFC 6238). The secret is sealed (AES-256-GCM, bound to
 * the user) and shown only while it is being enrolled; once confirmed, nothing returns it.
 */
const ISSUER = 'Chorus';
const context = (userId: string) => `totp:${userId}`;

export const sealTotpSecret = (userId: string, secret: string) => seal(secret, context(userId));
export const unsealTotpSecret = (userId: string, sealed: string) => unseal(sealed, context(userId));

const invalidCode = () =>
  new AppError('validation_error', 'The code is not valid.', {
    issues: [{ path: 'code', message: 'Enter the current 6-digit code from your app.' }],
  });

async function findSelf(db: Db, principal: Principal) {
  const [row] = await db.select().from(users).where(eq(users.id, principal.userId));
  if (!row) throw notFound('User');
  return row;
}

export async function twoFactorStatus(opts: { db: Db; principal: Principal }) {
  const row = await findSelf(opts.db, opts.principal);
  return { enabled: row.twoFactorEnabled };
}

/** Starts (or restarts) enrollment: a new secret, to be shown once as a QR code. */
export async function beginTwoFactorEnrollment(opts: { db: Db; principal: Principal }) {
  const row = await findSelf(opts.db, opts.principal);
  if (row.twoFactorEnabled) {
    throw new AppError('validation_error', 'Two-factor authentication is already on.');
  }
  const secret = generateTotpSecret();
  await opts.db
    .update(users)
    .set({ totpPendingSecret: sealTotpSecret(row.id, secret) })
    .where(eq(users.id, row.id));
  return { secret, otpauthUri: totpUri({ secret, account: row.email, issuer: ISSUER }) };
}

/** A code from the app proves it holds the secret: from now on, login asks for a code. */
export async function confirmTwoFactorEnrollment(opts: {
  db: Db;
  principal: Principal;
  code: string;
}) {
  const row = await findSelf(opts.db, opts.principal);
  if (row.twoFactorEnabled) return { enabled: true };
  if (!row.totpPendingSecret) {
    throw new AppError('validation_error', 'Start enrollment first: no secret is pending.');
  }
  const secret = unsealTotpSecret(row.id, row.totpPendingSecret);
  const step = verifyTotp(secret, opts.code);
  if (step === null) throw invalidCode();
  await opts.db
    .update(users)
    .set({
      twoFactorEnabled: true,
      totpSecret: row.totpPendingSecret,
      totpPendingSecret: null,
      totpLastStep: step,
    })
    .where(eq(users.id, row.id));
  return { enabled: true };
}

/** Turning it off from the dashboard takes a current code, so a left-open session cannot. */
export async function disableTwoFactor(opts: { db: Db; principal: Principal; code: string }) {
  const row = await findSelf(opts.db, opts.principal);
  if (!row.twoFactorEnabled || !row.totpSecret) return { enabled: false };
  const step = verifyTotp(unsealTotpSecret(row.id, row.totpSecret), opts.code, {
    after: row.totpLastStep,
  });
  if (step === null) throw invalidCode();
  await opts.db
    .update(users)
    .set({ twoFactorEnabled: false, totpSecret: null, totpPendingSecret: null, totpLastStep: null })
    .where(eq(users.id, row.id));
  return { enabled: false };
}
