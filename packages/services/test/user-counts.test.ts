import { and, count, eq, userCounts, users, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  createUser,
  deleteUser,
  listUsers,
  pageCount,
  updateUser,
  userTotal,
  type PageRequest,
} from '../src';
import { adminOf } from './oauth-fixtures';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function newAccount(name: string) {
  const { accountId, adminId } = await createAccount(database.db, {
    name,
    admin: { email: `admin@${name}.test`, password: 'password-admin' },
  });
  return { accountId, adminId, principal: adminOf(accountId, adminId) };
}

/** The kept counts of the account, per role. */
async function kept(accountId: string) {
  const rows = await database.db
    .select({ role: userCounts.role, n: userCounts.count })
    .from(userCounts)
    .where(eq(userCounts.accountId, accountId));
  return { admin: 0, user: 0, ...Object.fromEntries(rows.map((r) => [r.role, r.n])) };
}

/** The account's users counted from the table itself, per role. */
async function real(accountId: string) {
  const rows = await database.db
    .select({ role: users.role, n: count() })
    .from(users)
    .where(eq(users.accountId, accountId))
    .groupBy(users.role);
  return { admin: 0, user: 0, ...Object.fromEntries(rows.map((r) => [r.role, r.n])) };
}

const input = (email: string, role: 'admin' | 'user' = 'user') => ({
  name: email.split('@')[0] ?? email,
  email,
  password: 'password-user',
  role,
});

describe('user counts', () => {
  it('follow every create, role change and delete, equal to a real count at each step', async () => {
    const { accountId, principal } = await newAccount('steps');
    const db = database.db;
    expect(await kept(accountId)).toEqual({ admin: 1, user: 0 });
    const ada = await createUser({ db, principal, input: input('ada@steps.test') });
    const bob = await createUser({ db, principal, input: input('bob@steps.test', 'admin') });
    expect(await kept(accountId)).toEqual({ admin: 2, user: 1 });
    await updateUser({ db, principal, userId: ada.id, input: { role: 'admin' } });
    expect(await kept(accountId)).toEqual({ admin: 3, user: 0 });
    await updateUser({ db, principal, userId: bob.id, input: { role: 'user' } });
    // Sending the current role, or no role, changes nothing.
    await updateUser({ db, principal, userId: bob.id, input: { role: 'user', name: 'Bob' } });
    await updateUser({ db, principal, userId: ada.id, input: { name: 'Ada' } });
    expect(await kept(accountId)).toEqual({ admin: 2, user: 1 });
    await deleteUser({ db, principal, userId: bob.id });
    await deleteUser({ db, principal, userId: ada.id });
    expect(await kept(accountId)).toEqual({ admin: 1, user: 0 });
    expect(await kept(accountId)).toEqual(await real(accountId));
  });

  it('stay unchanged when the change fails: a taken email, the last admin, a rolled-back delete', async () => {
    const { accountId, adminId, principal } = await newAccount('failures');
    const db = database.db;
    const member = await createUser({ db, principal, input: input('member@failures.test') });
    const before = await kept(accountId);
    await expect(
      createUser({ db, principal, input: input('MEMBER@failures.test') }),
    ).rejects.toMatchObject({ code: 'email_already_exists' });
    await expect(
      updateUser({ db, principal, userId: adminId, input: { role: 'user' } }),
    ).rejects.toMatchObject({ code: 'last_admin' });
    await expect(deleteUser({ db, principal, userId: adminId })).rejects.toMatchObject({
      code: 'last_admin',
    });
    expect(await kept(accountId)).toEqual(before);

    // A count that cannot be kept fails the delete it belongs to: the user is still there.
    await db
      .delete(userCounts)
      .where(and(eq(userCounts.accountId, accountId), eq(userCounts.role, 'user')));
    await expect(deleteUser({ db, principal, userId: member.id })).rejects.toThrow();
    const [still] = await db.select().from(users).where(eq(users.id, member.id));
    expect(still?.email).toBe('member@failures.test');
  });

  it('are exact after creates and deletes racing in one account', async () => {
    const { accountId, principal } = await newAccount('race');
    const db = database.db;
    const first = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createUser({ db, principal, input: input(`r${i}@race.test`, i % 4 ? 'user' : 'admin') }),
      ),
    );
    await Promise.all([
      ...first.slice(0, 4).map((u) => deleteUser({ db, principal, userId: u.id })),
      ...Array.from({ length: 6 }, (_, i) =>
        createUser({ db, principal, input: input(`s${i}@race.test`) }),
      ),
    ]);
    expect(await kept(accountId)).toEqual(await real(accountId));
    expect(await kept(accountId)).toEqual({ admin: 2, user: 9 });
  });

  it('are the users list’s total, with and without a role; a search counts the table', async () => {
    const { accountId, principal } = await newAccount('totals');
    const db = database.db;
    for (const email of ['x1@totals.test', 'x2@totals.test', 'y1@totals.test']) {
      await createUser({ db, principal, input: input(email) });
    }
    const page: PageRequest = { page: 1, limit: 2 };
    const totalOf = async (filters: { role?: 'admin' | 'user'; q?: string }) =>
      (await listUsers({ db, principal, page, ...filters })).total;
    expect(await totalOf({})).toBe(4);
    expect(await totalOf({ role: 'user' })).toBe(3);
    expect(await totalOf({ role: 'admin' })).toBe(1);
    expect(await totalOf({ q: 'x' })).toBe(2);
    expect(await totalOf({ q: 'x', role: 'admin' })).toBe(0);
    // The page's rows carry the total; a page with no rows still has it.
    const past = await listUsers({ db, principal, page: { page: 9, limit: 2 }, role: 'user' });
    expect(past.items).toEqual([]);
    expect({ ...past, pages: pageCount(past.total, past.limit) }).toMatchObject({
      total: 3,
      page: 9,
      limit: 2,
      pages: 2,
    });
    const first = await listUsers({ db, principal, page });
    const lastId = first.items.at(-1)?.id ?? '';
    const after = await listUsers({ db, principal, page, startingAfter: lastId });
    expect(after.total).toBe(4);
    expect(after.items.every((user) => !('total' in user))).toBe(true);
    expect(await userTotal({ db, accountId })).toBe(4);
    const other = await newAccount('totals-other');
    expect(await userTotal({ db, accountId: other.accountId })).toBe(1);
    expect(await userTotal({ db, accountId: 'acc_unknown' })).toBe(0);
  });
});
