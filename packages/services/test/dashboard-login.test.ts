import { totpCode, totpStep } from '@chorus/auth';
import { eq, like, signInThrottles, users, type Database } from '@chorus/db';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '@chorus/validators';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beginTwoFactorEnrollment,
  confirmTwoFactorEnrollment,
  createUser,
  disableTwoFactor,
  getUser,
  updateUser,
  verifyDashboardLogin,
} from '../src';
import { newLoginUser } from './login-fixtures';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const newUser = () => newLoginUser(database.db, 'password-login');

const login = (email: string, password: string, code?: string) =>
  verifyDashboardLogin({ db: database.db, email, password, code });

const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: { reason?: string }) => e.reason,
  );

describe('dashboard login', () => {
  it('checks the password, case-insensitively on the email, and records lastLogin', async () => {
    const { email, principal } = await newUser();
    const before = await getUser({ db: database.db, principal, userId: principal.userId });
    expect(before.lastLogin).toBeNull();
    const session = await login(email.toUpperCase(), 'password-login');
    expect(session).toMatchObject({
      userId: principal.userId,
      accountId: principal.accountId,
      role: 'admin',
      email,
    });
    const after = await getUser({ db: database.db, principal, userId: principal.userId });
    expect(after.lastLogin).toMatch(/Z$/);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const { email } = await newUser();
    expect(await reason(login(email, 'wrong-password'))).toBe('invalid_credentials');
    expect(await reason(login('nobody@example.test', 'password-login'))).toBe(
      'invalid_credentials',
    );
  });

  it('refuses an email or password longer than any account has before the database and argon2', async () => {
    const { email } = await newUser();
    const clientIp = '192.0.2.77';
    const keys = () =>
      database.db
        .select({ key: signInThrottles.key })
        .from(signInThrottles)
        .where(like(signInThrottles.key, `%${clientIp}`));
    const attempt = (mail: string, password: string, code?: string) =>
      reason(verifyDashboardLogin({ db: database.db, email: mail, password, code, clientIp }));
    for (const [mail, password, code] of [
      [email, 'p'.repeat(MAX_PASSWORD_LENGTH + 1)],
      [email, 'p'.repeat(5_000_000)],
      [`${'e'.repeat(MAX_EMAIL_LENGTH)}@x.test`, 'password-login'],
      [email, 'password-login', '1'.repeat(33)],
    ] as [string, string, string?][]) {
      expect(await attempt(mail, password, code)).toBe('invalid_credentials');
    }
    // Refused unread: no failure was counted (counting reads and writes the database).
    expect(await keys()).toEqual([]);
    // At the limits, the attempt is checked, and its failure counted.
    expect(await attempt(email, 'p'.repeat(MAX_PASSWORD_LENGTH))).toBe('invalid_credentials');
    expect((await keys()).length).toBe(2);
  });

  it('refuses a NUL character in the email or password as invalid credentials, not a crash', async () => {
    const { email } = await newUser();
    expect(await reason(login(`${email}\0`, 'password-login'))).toBe('invalid_credentials');
    expect(await reason(login(email, 'password-login\0'))).toBe('invalid_credentials');
  });
});

describe('two-factor authentication', () => {
  it('is enrolled with a code, then asked for at login, and a code works once', async () => {
    const { email, principal } = await newUser();
    const { secret, otpauthUri } = await beginTwoFactorEnrollment({ db: database.db, principal });
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Chorus%3A.+\?secret=[A-Z2-7]+&issuer=Chorus/);
    // Still off until confirmed.
    expect(await reason(login(email, 'password-login'))).toBe('ok');
    await expect(
      confirmTwoFactorEnrollment({ db: database.db, principal, code: '000000' }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await confirmTwoFactorEnrollment({
      db: database.db,
      principal,
      code: totpCode(secret, totpStep() - 1),
    });
    const [row] = await database.db.select().from(users).where(eq(users.id, principal.userId));
    expect(row?.twoFactorEnabled).toBe(true);
    expect(JSON.stringify(row)).not.toContain(secret);

    expect(await reason(login(email, 'password-login'))).toBe('code_required');
    expect(await reason(login(email, 'password-login', '123456x'))).toBe('invalid_code');
    // The enrollment code's step is spent; the current one works, once.
    const code = totpCode(secret);
    expect(await reason(login(email, 'password-login', code))).toBe('ok');
    expect(await reason(login(email, 'password-login', code))).toBe('invalid_code');
    // A wrong password says nothing about the second factor.
    expect(await reason(login(email, 'wrong-password'))).toBe('invalid_credentials');
  });

  it('is not switched by one’s own session through a user update, only with a code', async () => {
    const { email, principal } = await newUser();
    const update = (twoFactorAuth: boolean) =>
      updateUser({
        db: database.db,
        principal,
        userId: principal.userId,
        input: { settings: { twoFactorAuth } },
      });
    await expect(update(true)).rejects.toMatchObject({ code: 'forbidden' });
    const { secret } = await beginTwoFactorEnrollment({ db: database.db, principal });
    await confirmTwoFactorEnrollment({ db: database.db, principal, code: totpCode(secret) });
    // A stolen session cannot drop it: the Security page asks for a code.
    await expect(update(false)).rejects.toMatchObject({
      code: 'forbidden',
      message: 'Turn two-factor authentication on and off on the Security page, with a code.',
    });
    const [row] = await database.db.select().from(users).where(eq(users.id, principal.userId));
    expect(row).toMatchObject({ twoFactorEnabled: true });
    expect(await reason(login(email, 'password-login'))).toBe('code_required');
  });

  it('is turned off for a member by an admin (a lost authenticator), forgetting the secret', async () => {
    const { principal: admin } = await newUser();
    const member = await createUser({
      db: database.db,
      principal: admin,
      input: {
        name: 'Member',
        email: `member-${Date.now()}@example.test`,
        password: 'member-password',
        role: 'user',
      },
    });
    const memberPrincipal = { ...admin, userId: member.id, role: 'user' as const };
    const { secret } = await beginTwoFactorEnrollment({
      db: database.db,
      principal: memberPrincipal,
    });
    await confirmTwoFactorEnrollment({
      db: database.db,
      principal: memberPrincipal,
      code: totpCode(secret),
    });
    expect(await reason(login(member.email, 'member-password'))).toBe('code_required');
    await updateUser({
      db: database.db,
      principal: admin,
      userId: member.id,
      input: { settings: { twoFactorAuth: false } },
    });
    const [row] = await database.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ twoFactorEnabled: false, totpSecret: null });
    expect(await reason(login(member.email, 'member-password'))).toBe('ok');
  });

  it('is turned off in the dashboard with a current code', async () => {
    const { principal } = await newUser();
    const { secret } = await beginTwoFactorEnrollment({ db: database.db, principal });
    await confirmTwoFactorEnrollment({
      db: database.db,
      principal,
      code: totpCode(secret, totpStep() - 1),
    });
    await expect(beginTwoFactorEnrollment({ db: database.db, principal })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(
      disableTwoFactor({ db: database.db, principal, code: '000000' }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await expect(
      disableTwoFactor({ db: database.db, principal, code: totpCode(secret) }),
    ).resolves.toEqual({ enabled: false });
  });
});
