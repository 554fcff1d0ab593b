import { hashPassword, verifyPassword, type Principal } from '@chorus/auth';
import {
  accounts,
  and,
  count,
  desc,
  eq,
  ilike,
  isUniqueViolation,
  or,
  preparedPerDb,
  sql,
  users,
  type Db,
} from '@chorus/db';
import type { CreateUserInput, Role, UpdateUserInput, User, UserSummary } from '@chorus/validators';
import { AppError, notFound } from './errors';
import { recordEvent } from './events/record';
import { newId } from './ids';
import { pageCount, pageOffset, type PageRequest } from './pagination';

type UserRow = typeof users.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

type SummaryRow = Pick<UserRow, 'id' | 'name' | 'email' | 'role' | 'createdAt'>;

export const toUserSummary = (row: SummaryRow): UserSummary => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});

export const toUser = (row: UserRow): User => ({
  ...toUserSummary(row),
  lastLogin: row.lastLoginAt?.toISOString() ?? null,
  settings: { notifications: row.notifications, twoFactorAuth: row.twoFactorEnabled },
});

const emailTaken = () =>
  new AppError('email_already_exists', 'A user with this email address already exists.');

/** Runs an insert or update, turning the database's verdict on email uniqueness into ours. */
async function guardEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_lower_key')) throw emailTaken();
    throw error;
  }
}

/** The account's users (of one role, when `byRole`), newest first, one page. */
const usersPage = (byRole: boolean) =>
  preparedPerDb((db) =>
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        role: users.role,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(usersOf(byRole))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(byRole ? 'users_page_by_role' : 'users_page'),
  );

const usersTotal = (byRole: boolean) =>
  preparedPerDb((db) =>
    db
      .select({ total: count() })
      .from(users)
      .where(usersOf(byRole))
      .prepare(byRole ? 'users_total_by_role' : 'users_total'),
  );

const usersOf = (byRole: boolean) =>
  and(
    eq(users.accountId, sql.placeholder('accountId')),
    byRole ? eq(users.role, sql.placeholder('role')) : undefined,
  );

// The list is read on every call of GET /api/users: prepared once, per filter.
const pageQuery = { all: usersPage(false), byRole: usersPage(true) };
const totalQuery = { all: usersTotal(false), byRole: usersTotal(true) };

/**
 * The page and the total through the prepared statements. One after the other: the embedded
 * database's socket (pglite-socket) mixes up statements pipelined on one connection.
 */
async function listPrepared(db: Db, accountId: string, page: PageRequest, role?: Role) {
  const filter = role ? 'byRole' : 'all';
  const values = { accountId, role };
  const rows = await pageQuery[filter](db).execute({
    ...values,
    limit: page.limit,
    offset: pageOffset(page),
  });
  const [totals] = await totalQuery[filter](db).execute(values);
  return [rows, totals] as const;
}

/** A text search on name or email (any case; `%`, `_` and `\\` match themselves). */
async function searchUsers(db: Db, accountId: string, page: PageRequest, q: string, role?: Role) {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = and(
    eq(users.accountId, accountId),
    role ? eq(users.role, role) : undefined,
    or(ilike(users.name, pattern), ilike(users.email, pattern)),
  );
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(page.limit)
    .offset(pageOffset(page));
  const [totals] = await db.select({ total: count() }).from(users).where(where);
  return [rows, totals] as const;
}

export async function listUsers(opts: {
  db: Db;
  principal: Principal;
  page: PageRequest;
  role?: Role;
  /** Text the name or email contains, any case; `%`, `_` and `\\` match themselves. */
  q?: string;
}) {
  const { db, principal, page, role, q } = opts;
  const [rows, totals] = q
    ? await searchUsers(db, principal.accountId, page, q, role)
    : await listPrepared(db, principal.accountId, page, role);
  const total = totals?.total ?? 0;
  return {
    data: rows.map(toUserSummary),
    pagination: { total, page: page.page, limit: page.limit, pages: pageCount(total, page.limit) },
  };
}

async function findUser(db: Db | Tx, principal: Principal, userId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, principal.accountId)))
    .limit(1);
  if (!row) throw notFound('User');
  return row;
}

export async function getUser(opts: { db: Db; principal: Principal; userId: string }) {
  return toUser(await findUser(opts.db, opts.principal, opts.userId));
}

export async function createUser(opts: { db: Db; principal: Principal; input: CreateUserInput }) {
  const { db, principal, input } = opts;
  const passwordHash = await hashPassword(input.password);
  const row = await guardEmail(() =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          id: newId('usr'),
          accountId: principal.accountId,
          name: input.name,
          email: input.email,
          passwordHash,
          role: input.role,
        })
        .returning();
      if (!created) throw new Error('insert returned no row');
      await recordEvent({
        tx,
        accountId: principal.accountId,
        type: 'user.created',
        object: toUser(created),
      });
      return created;
    }),
  );
  return toUserSummary(row);
}

/**
 * Serialises role changes and deletions within one account, so that two admins demoting
 * each other at once cannot both succeed and leave the account without an admin.
 */
async function lockAccount(tx: Tx, accountId: string) {
  await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
}

async function assertAnotherAdmin(tx: Tx, accountId: string) {
  const [admins] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.role, 'admin')));
  if ((admins?.n ?? 0) <= 1) {
    throw new AppError('last_admin', 'The last admin of an account cannot be removed or demoted.');
  }
}

/**
 * What a bearer token (API key, OAuth token) may not do, whatever its scopes, because it would
 * turn a narrow credential into a full login (decisions §3): change its own user's password
 * without the current one, or switch two-factor authentication.
 */
async function assertBearerMayChange(target: UserRow, input: UpdateUserInput, isSelf: boolean) {
  const twoFactor = input.settings?.twoFactorAuth;
  if (twoFactor !== undefined && twoFactor !== target.twoFactorEnabled) {
    throw new AppError(
      'forbidden',
      'Two-factor authentication is turned on and off in the dashboard, with a code.',
    );
  }
  if (!isSelf || input.password === undefined) return;
  const current = input.currentPassword;
  if (!current || !(await verifyPassword(target.passwordHash, current))) {
    throw new AppError('validation_error', 'The current password is required to change it.', {
      issues: [
        {
          path: 'currentPassword',
          message: current ? 'The current password is wrong.' : 'Send the current password.',
        },
      ],
    });
  }
}

export async function updateUser(opts: {
  db: Db;
  principal: Principal;
  userId: string;
  input: UpdateUserInput;
}) {
  const { db, principal, userId, input } = opts;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return db.transaction(async (tx) => {
    await lockAccount(tx, principal.accountId);
    const target = await findUser(tx, principal, userId);
    const isSelf = target.id === principal.userId;
    if (principal.role !== 'admin' && !isSelf) {
      throw new AppError('forbidden', 'You may only update your own profile.');
    }
    const roleChanges = input.role !== undefined && input.role !== target.role;
    if (roleChanges && principal.role !== 'admin') {
      throw new AppError('forbidden', 'Only an admin can change roles.');
    }
    if (roleChanges && target.role === 'admin') await assertAnotherAdmin(tx, principal.accountId);
    if (principal.credential.kind !== 'session') await assertBearerMayChange(target, input, isSelf);
    if (input.settings?.twoFactorAuth === true && !target.twoFactorEnabled) {
      throw new AppError('validation_error', 'Two-factor authentication needs enrollment.', {
        issues: [
          {
            path: 'settings.twoFactorAuth',
            message: 'Turn two-factor authentication on in the dashboard, where it is enrolled.',
          },
        ],
      });
    }
    const [row] = await guardEmail(() =>
      tx
        .update(users)
        .set({
          name: input.name,
          email: input.email,
          passwordHash,
          role: input.role,
          notifications: input.settings?.notifications,
          twoFactorEnabled: input.settings?.twoFactorAuth,
          // Turning it off forgets the secret: turning it on again means a new enrollment.
          ...(input.settings?.twoFactorAuth === false && {
            totpSecret: null,
            totpPendingSecret: null,
            totpLastStep: null,
          }),
          // A new password or role ends the user's dashboard sessions (decisions §3).
          ...((passwordHash || roleChanges) && {
            sessionGeneration: sql`${users.sessionGeneration} + 1`,
          }),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, target.id))
        .returning(),
    );
    if (!row) throw notFound('User');
    const user = toUser(row);
    await recordEvent({ tx, accountId: principal.accountId, type: 'user.updated', object: user });
    return user;
  });
}

export async function deleteUser(opts: { db: Db; principal: Principal; userId: string }) {
  const { db, principal, userId } = opts;
  await db.transaction(async (tx) => {
    await lockAccount(tx, principal.accountId);
    const target = await findUser(tx, principal, userId);
    if (target.role === 'admin') await assertAnotherAdmin(tx, principal.accountId);
    await tx.delete(users).where(eq(users.id, target.id));
    await recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'user.deleted',
      object: toUser(target),
    });
  });
}
