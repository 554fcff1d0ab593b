/** Issue 8 item 4: sign-in throttles, the TOTP step consumed once, hashing in a queue. */
import { hashPassword, passwordHashing, totpCode } from '@chorus/auth';
import { eq, users, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beginTwoFactorEnrollment,
  confirmTwoFactorEnrollment,
  LoginError,
  recordFailure,
  SIGN_IN_RULES,
  verifyDashboardLogin,
} from '../src';
import { newLoginUser } from './login-fixtures';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const newUser = () => newLoginUser(database.db, 'right-password');

const login = (email: string, password: string, clientIp: string, code?: string) =>
  verifyDashboardLogin({ db: database.db, email, password, clientIp, code }).then(
    () => ({ reason: 'ok' as string, retryAt: undefined as Date | undefined }),
    (e: unknown) => {
      if (!(e instanceof LoginError)) throw e;
      return { reason: e.reason as string, retryAt: e.retryAt };
    },
  );

describe('sign-in throttling', () => {
  it('refuses the eleventh attempt for one account from one address, even with the right password', async () => {
    const { email, principal } = await newUser();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(email, 'wrong-password', '203.0.113.5')).reason).toBe(
        'invalid_credentials',
      );
    }
    const refused = await login(email, 'right-password', '203.0.113.5');
    expect(refused.reason).toBe('throttled');
    const minutes = ((refused.retryAt?.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15.1);
    // Not signed in: no lastLogin recorded.
    const [row] = await database.db.select().from(users).where(eq(users.id, principal.userId));
    expect(row?.lastLoginAt).toBeNull();
    // The same account from another address, and another account from this one, still work.
    expect((await login(email, 'right-password', '203.0.113.6')).reason).toBe('ok');
    const other = await newUser();
    expect((await login(other.email, 'right-password', '203.0.113.5')).reason).toBe('ok');
  });

  it('forgets the failures of a pair after a success', async () => {
    const { email } = await newUser();
    for (let i = 0; i < 9; i += 1) await login(email, 'wrong-password', '203.0.113.7');
    expect((await login(email, 'right-password', '203.0.113.7')).reason).toBe('ok');
    expect((await login(email, 'wrong-password', '203.0.113.7')).reason).toBe(
      'invalid_credentials',
    );
    expect((await login(email, 'right-password', '203.0.113.7')).reason).toBe('ok');
  });

  it('blocks an address after 100 failures within an hour, whatever the account', async () => {
    const { email } = await newUser();
    const key = 'address:203.0.113.8';
    for (let i = 0; i < 99; i += 1) await recordFailure(database.db, key, SIGN_IN_RULES.address);
    expect((await login('nobody@example.test', 'x-password', '203.0.113.8')).reason).toBe(
      'invalid_credentials',
    );
    expect((await login(email, 'right-password', '203.0.113.8')).reason).toBe('throttled');
    expect((await login(email, 'right-password', '203.0.113.9')).reason).toBe('ok');
  });
});

describe('the two-factor step', () => {
  async function withTwoFactor() {
    const user = await newUser();
    const { secret } = await beginTwoFactorEnrollment({
      db: database.db,
      principal: user.principal,
    });
    await confirmTwoFactorEnrollment({
      db: database.db,
      principal: user.principal,
      code: totpCode(secret),
    });
    return { ...user, secret };
  }

  it('restarts the sign-in after 5 wrong codes', async () => {
    const { email } = await withTwoFactor();
    const ip = '198.51.100.20';
    for (let i = 0; i < 4; i += 1) {
      expect((await login(email, 'right-password', ip, '000000')).reason).toBe('invalid_code');
    }
    expect((await login(email, 'right-password', ip, '000000')).reason).toBe('too_many_codes');
    expect((await login(email, 'right-password', ip, '000000')).reason).toBe('invalid_code');
  });

  it('lets one code sign in once, even when two sign-ins race with it', async () => {
    const { email, secret } = await withTwoFactor();
    // The enrollment spent the current step: wait for none, use the next step's code.
    const next = totpCode(secret, Math.floor(Date.now() / 30_000) + 1);
    const results = await Promise.all([
      login(email, 'right-password', '198.51.100.21', next),
      login(email, 'right-password', '198.51.100.22', next),
    ]);
    expect(results.map((r) => r.reason).sort()).toEqual(['invalid_code', 'ok']);
  });
});

describe('password hashing', () => {
  it('runs at most a few at a time; the rest wait in line', async () => {
    const all = Promise.all(Array.from({ length: 10 }, () => hashPassword('queue-me-please')));
    expect(passwordHashing()).toEqual({ running: 4, waiting: 6 });
    await all;
    expect(passwordHashing()).toEqual({ running: 0, waiting: 0 });
  });
});
