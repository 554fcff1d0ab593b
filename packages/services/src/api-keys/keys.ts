import { generateApiKey, type ApiKeyEnvironment, type Principal } from '@chorus/auth';
import { and, apiKeys, desc, eq, isNull, sql, users, type Db, type SQL } from '@chorus/db';
import type { Scope } from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { newId } from '../shared/ids';

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What may be shown of a key after creation: never the secret or its hash. */
export const toApiKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  environment: row.environment,
  prefix: `csk_${row.environment}_`,
  lastFour: row.lastFour,
  scopes: row.scopes as Scope[],
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id, accountId: users.accountId })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  if (!row) throw new AppError('resource_not_found', `No user has the email ${email}.`);
  return row;
}

/** Issues a key acting as `userId`; the secret is returned here and never again. */
export async function createApiKey(opts: {
  db: Db;
  userId: string;
  name: string;
  scopes: Scope[];
  environment: ApiKeyEnvironment;
  expiresAt?: Date;
}) {
  const { db, userId, name, scopes, environment, expiresAt } = opts;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new AppError('validation_error', 'The expiry must be in the future.', {
      issues: [{ path: 'expiresAt', message: 'Must be in the future.' }],
    });
  }
  const [owner] = await db
    .select({ accountId: users.accountId })
    .from(users)
    .where(eq(users.id, userId));
  if (!owner) throw notFound('User');
  const key = generateApiKey(environment);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      accountId: owner.accountId,
      userId,
      name,
      environment,
      tokenHash: key.hash,
      lastFour: key.lastFour,
      scopes: [...new Set(scopes)],
      expiresAt,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { apiKey: toApiKey(row), secret: key.secret };
}

/** A key's state as lists show it: a revoked or expired key no longer works. */
function apiKeyState(
  key: { revokedAt: string | null; expiresAt: string | null },
  now = new Date(),
): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt && Date.parse(key.expiresAt) <= now.getTime() ? 'expired' : 'active';
}

/** Keys matching `where`, newest first, each with its state and its owner (whose it is). */
async function listKeys(db: Db, where: SQL | undefined) {
  const rows = await db
    .select({ key: apiKeys, owner: { id: users.id, name: users.name, email: users.email } })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const now = new Date();
  return rows.map(({ key, owner }) => {
    const apiKey = toApiKey(key);
    return { ...apiKey, state: apiKeyState(apiKey, now), owner };
  });
}

export const listApiKeys = (db: Db, accountId: string) =>
  listKeys(db, eq(apiKeys.accountId, accountId));

/**
 * The dashboard's view: an admin sees and revokes every key of the account, a user only
 * their own (a user must not end an admin's integration).
 */
const visibleTo = (principal: Principal) =>
  and(
    eq(apiKeys.accountId, principal.accountId),
    principal.role === 'admin' ? undefined : eq(apiKeys.userId, principal.userId),
  );

export const listApiKeysOf = (opts: { db: Db; principal: Principal }) =>
  listKeys(opts.db, visibleTo(opts.principal));

export async function revokeApiKeyOf(opts: { db: Db; principal: Principal; keyId: string }) {
  const [row] = await opts.db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, opts.keyId), isNull(apiKeys.revokedAt), visibleTo(opts.principal)))
    .returning();
  if (!row) throw notFound('Active API key');
  return toApiKey(row);
}

/** Revokes a key of `accountId` (any account when omitted, for the operator's CLI). */
export async function revokeApiKey(db: Db, keyId: string, accountId?: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, keyId),
        isNull(apiKeys.revokedAt),
        accountId ? eq(apiKeys.accountId, accountId) : undefined,
      ),
    )
    .returning();
  if (!row) throw notFound('Active API key');
  return toApiKey(row);
}
