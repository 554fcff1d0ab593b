import { hashPassword } from '@chorus/auth';
import { accounts, isUniqueViolation, sql, users, type Db } from '@chorus/db';
import { AppError } from '../shared/errors';
import { newId } from '../shared/ids';
import { countUsers } from '../users/counts';

export type Tier = 'free' | 'pro' | 'enterprise';

export interface NewAccount {
  name: string;
  tier?: Tier;
  admin: { name?: string; email: string; password: string };
}

/** Creates an account with its first admin, both or neither. */
export async function createAccount(db: Db, input: NewAccount) {
  const passwordHash = await hashPassword(input.admin.password);
  const accountId = newId('acc');
  const adminId = newId('usr');
  try {
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values({ id: accountId, name: input.name, tier: input.tier });
      await tx.insert(users).values({
        id: adminId,
        accountId,
        name: input.admin.name ?? input.admin.email.split('@')[0] ?? 'Admin',
        email: input.admin.email,
        passwordHash,
        role: 'admin',
      });
      await countUsers({ tx, accountId, changes: { admin: 1 } });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_lower_key')) {
      throw new AppError(
        'email_already_exists',
        `A user with the email ${input.admin.email} already exists.`,
      );
    }
    throw error;
  }
  return { accountId, adminId };
}

/** Any fixed number: makes concurrent first starts create one bootstrap account, not two. */
const BOOTSTRAP_LOCK = 7_250_022;

/**
 * On a first start (no account yet), creates one account and its admin. Returns what was
 * created, or null when the deployment already has an account.
 */
export async function bootstrapFirstAdmin(
  db: Db,
  admin: { email: string; password: string },
): Promise<{ email: string } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    const existing = await tx.select({ id: accounts.id }).from(accounts).limit(1);
    if (existing.length > 0) return null;
    const accountId = newId('acc');
    await tx.insert(accounts).values({ id: accountId, name: 'Chorus' });
    await tx.insert(users).values({
      id: newId('usr'),
      accountId,
      name: 'Administrator',
      email: admin.email,
      passwordHash: await hashPassword(admin.password),
      role: 'admin',
    });
    await countUsers({ tx, accountId, changes: { admin: 1 } });
    return { email: admin.email };
  });
}
