import { hashPassword, verifyPassword, type Principal } from '@chorus/auth';
import { accounts, and, eq, isUniqueViolation, sql, users, type Db } from '@chorus/db';
import type { CreateUserInput, UpdateUserInput, User, UserSummary } from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { newId } from '../shared/ids';
import { adminCount, countUsers } from './counts';

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
      await countUsers({ tx, accountId: principal.accountId, changes: { [created.role]: 1 } });
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
  if ((await adminCount(tx, accountId)) <= 1) {
    throw new AppError('last_admin', 'The last admin of an account cannot be removed or demoted.');
  }
}

/**
 * Two-factor authentication through a user update (docs/security.md): a bearer token never
 * switches it (it would turn a narrow credential into a full login), and a user's own session
 * turns it on and off on the Security page, with a code, so that a stolen session cannot drop
 * it either. An admin's session may turn another user's off: the reset for a lost
 * authenticator (turning it on needs that user's enrollment).
 */
function assertMaySwitchTwoFactor(opts: {
  target: UserRow;
  input: UpdateUserInput;
  viaSession: boolean;
  isSelf: boolean;
}) {
  const { target, input, viaSession, isSelf } = opts;
  const twoFactor = input.settings?.twoFactorAuth;
  if (twoFactor === undefined || twoFactor === target.twoFactorEnabled) return;
  if (viaSession && !isSelf) return;
  throw new AppError(
    'forbidden',
    viaSession
      ? 'Turn two-factor authentication on and off on the Security page, with a code.'
      : 'Two-factor authentication is turned on and off in the dashboard, with a code.',
  );
}

/**
 * Changing one's own sign-in (the password; through the dashboard also the email) needs the
 * current password, so that a stolen session or token cannot lock the owner out for good
 * (docs/security.md). An admin may still set another user's password (provisioning).
 */
async function assertCurrentPassword(opts: {
  target: UserRow;
  input: UpdateUserInput;
  viaSession: boolean;
}) {
  const { target, input, viaSession } = opts;
  const newEmail =
    input.email !== undefined && input.email.toLowerCase() !== target.email.toLowerCase();
  if (input.password === undefined && !(viaSession && newEmail)) return;
  const current = input.currentPassword;
  if (!current || !(await verifyPassword(target.passwordHash, current))) {
    const what = input.password === undefined ? 'your email' : 'your password';
    throw new AppError('validation_error', `The current password is required to change ${what}.`, {
      issues: [
        {
          path: 'currentPassword',
          message: current ? 'The current password is wrong.' : 'Enter your current password.',
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
    const viaSession = principal.credential.kind === 'session';
    assertMaySwitchTwoFactor({ target, input, viaSession, isSelf });
    if (isSelf) await assertCurrentPassword({ target, input, viaSession });
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
          // A new password or role ends the user's dashboard sessions (docs/security.md).
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
    if (roleChanges) {
      await countUsers({
        tx,
        accountId: principal.accountId,
        changes: { [target.role]: -1, [row.role]: 1 },
      });
    }
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
    await countUsers({ tx, accountId: principal.accountId, changes: { [target.role]: -1 } });
  });
}
