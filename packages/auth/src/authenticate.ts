import { accounts, and, apiKeys, eq, gt, isNull, or, sql, users, type Db } from '@chorus/db';
import type { Scope } from '@chorus/validators';
import type { Principal } from './principal';
import { API_KEY_PATTERN, hashToken } from './tokens';

/** lastUsedAt is refreshed at most this often, so authentication stays a read on hot paths. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The bearer token of an `Authorization` header, or null when absent or not a bearer. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * Resolves a bearer credential to its principal, or null for anything that must be refused
 * (unknown, malformed, expired, revoked). The role and tier are read fresh on every request.
 */
export async function authenticateBearer(db: Db, token: string): Promise<Principal | null> {
  if (API_KEY_PATTERN.test(token)) return authenticateApiKey(db, token);
  return null;
}

async function authenticateApiKey(db: Db, token: string): Promise<Principal | null> {
  const now = new Date();
  const [row] = await db
    .select({
      id: apiKeys.id,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      userId: users.id,
      role: users.role,
      accountId: accounts.id,
      tier: accounts.tier,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(
      and(
        eq(apiKeys.tokenHash, hashToken(token)),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(apiKeys.id, row.id));
  }
  return {
    accountId: row.accountId,
    userId: row.userId,
    role: row.role,
    tier: row.tier,
    credential: { kind: 'api_key', id: row.id },
    scopes: row.scopes as Scope[],
  };
}
