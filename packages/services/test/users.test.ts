import { accounts, count, eq, userCounts, users, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  bootstrapFirstAdmin,
  createAccount,
  createUser,
  newId,
  updateUser,
} from '../src';
import { adminOf } from './oauth-fixtures';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('email uniqueness', () => {
  it('is enforced by the database itself, case-insensitively', async () => {
    const { accountId } = await createAccount(database.db, {
      name: 'Raw',
      admin: { email: 'raw-admin@example.test', password: 'password-raw' },
    });
    const row = { accountId, name: 'R', passwordHash: 'x', role: 'user' as const };
    await database.db
      .insert(users)
      .values({ ...row, id: newId('usr'), email: 'Case@Example.test' });
    await expect(
      database.db.insert(users).values({ ...row, id: newId('usr'), email: 'case@example.TEST' }),
    ).rejects.toThrow();
  });
});

describe('createAccount', () => {
  it('creates nothing when the admin email is taken (one transaction)', async () => {
    await createAccount(database.db, {
      name: 'First',
      admin: { email: 'owner@first.test', password: 'password-1' },
    });
    const before = await database.db.select({ n: count() }).from(accounts);
    await expect(
      createAccount(database.db, {
        name: 'Second',
        admin: { email: 'OWNER@first.test', password: 'password-2' },
      }),
    ).rejects.toMatchObject({ code: 'email_already_exists' });
    expect(await database.db.select({ n: count() }).from(accounts)).toEqual(before);
  });
});

describe('the last admin', () => {
  it('survives two admins demoting each other at the same moment', async () => {
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'Duo',
      admin: { email: 'one@duo.test', password: 'password-one' },
    });
    const second = await createUser({
      db: database.db,
      principal: adminOf(accountId, adminId),
      input: { name: 'Two', email: 'two@duo.test', password: 'password-two', role: 'admin' },
    });
    const results = await Promise.allSettled([
      updateUser({
        db: database.db,
        principal: adminOf(accountId, adminId),
        userId: second.id,
        input: { role: 'user' },
      }),
      updateUser({
        db: database.db,
        principal: adminOf(accountId, second.id),
        userId: adminId,
        input: { role: 'user' },
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppError);
    expect(refused.reason.code).toBe('last_admin');
    const admins = await database.db.select().from(users).where(eq(users.accountId, accountId));
    expect(admins.filter((u) => u.role === 'admin')).toHaveLength(1);
  });
});

describe('bootstrapFirstAdmin', () => {
  it('creates an account and admin only when none exists', async () => {
    const fresh = await createTestDatabase();
    try {
      expect(
        await bootstrapFirstAdmin(fresh.db, { email: 'boot@example.test', password: 'password-b' }),
      ).toEqual({
        email: 'boot@example.test',
      });
      expect(
        await bootstrapFirstAdmin(fresh.db, {
          email: 'again@example.test',
          password: 'password-b',
        }),
      ).toBeNull();
      const all = await fresh.db.select().from(users);
      expect(all.map((u) => [u.email, u.role])).toEqual([['boot@example.test', 'admin']]);
      const counted = await fresh.db.select().from(userCounts);
      expect(counted.map((c) => [c.accountId, c.role, c.count])).toEqual([
        [all[0]?.accountId, 'admin', 1],
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe('newId', () => {
  it('is prefixed, 26 Crockford characters, unique and time-sortable', async () => {
    const first = newId('usr');
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newId('usr');
    expect(first).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first < second).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => newId('key'))).size).toBe(1000);
  });
});
