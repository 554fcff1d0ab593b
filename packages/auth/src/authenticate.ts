import {
  accounts,
  and,
  apiKeys,
  endedSessions,
  eq,
  gt,
  isNull,
  notExists,
  oauthGrants,
  oauthTokens,
  or,
  preparedPerDb,
  sql,
  users,
  type Db,
} from '@chorus/db';
import { SCOPES, type Scope } from '@chorus/validators';
import type { Principal } from './principal';
import { API_KEY_PATTERN, hashToken, isOAuthSecret } from './tokens';

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
  if (isOAuthSecret('accessToken', token)) return authenticateOAuthToken(db, token);
  return null;
}

/** The principal of a credential's row: who, in which account, with which scopes. */
const principalOf = (
  row: { accountId: string; userId: string; role: Principal['role']; tier: Principal['tier'] },
  credential: Principal['credential'],
  scopes: readonly Scope[],
): Principal => ({
  accountId: row.accountId,
  userId: row.userId,
  role: row.role,
  tier: row.tier,
  credential,
  scopes,
});

/**
 * An OAuth access token acts as the user who approved the grant, limited to the token's
 * scopes (docs/security.md). A revoked token, a revoked grant or an expired token is refused.
 */
async function authenticateOAuthToken(db: Db, token: string): Promise<Principal | null> {
  const [row] = await db
    .select({
      id: oauthTokens.id,
      scopes: oauthTokens.scopes,
      clientId: oauthGrants.clientId,
      userId: users.id,
      role: users.role,
      accountId: accounts.id,
      tier: accounts.tier,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(
      and(
        eq(oauthTokens.tokenHash, hashToken(token)),
        eq(oauthTokens.kind, 'access'),
        isNull(oauthTokens.revokedAt),
        isNull(oauthGrants.revokedAt),
        gt(oauthTokens.expiresAt, new Date()),
        // A user moved out of the grant's account keeps nothing of it.
        eq(oauthGrants.accountId, users.accountId),
      ),
    )
    .limit(1);
  if (!row) return null;
  // The rate-limit budget of an OAuth token is per (account, user, client): docs/rate-limits-and-idempotency.md.
  const credential = { kind: 'oauth' as const, id: row.id, clientId: row.clientId };
  return principalOf(row, credential, row.scopes as Scope[]);
}

/**
 * A dashboard session (next-auth): the signed-in user with every scope, the role and the
 * account read fresh, so a demotion or a deletion takes effect on the next request, and only
 * while the user's session generation is the one the session was signed in under.
 */
export async function authenticateSession(
  db: Db,
  session: { userId: string; sessionId: string; generation: number },
): Promise<Principal | null> {
  const [row] = await db
    .select({ userId: users.id, role: users.role, accountId: accounts.id, tier: accounts.tier })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    // Ended sessions: signed out, or signed in under an older generation (password change…).
    .where(
      and(
        eq(users.id, session.userId),
        eq(users.sessionGeneration, session.generation),
        notExists(
          db
            .select({ one: sql`1` })
            .from(endedSessions)
            .where(eq(endedSessions.sessionId, session.sessionId)),
        ),
      ),
    )
    .limit(1);
  if (!row) return null;
  return principalOf(row, { kind: 'session', id: session.sessionId }, SCOPES);
}

/** The key's row by its hash, with its user and account: once per request, so prepared. */
const apiKeyByHash = preparedPerDb((db) =>
  db
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
        eq(apiKeys.tokenHash, sql.placeholder('hash')),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql.placeholder('now'))),
      ),
    )
    .limit(1)
    .prepare('authenticate_api_key'),
);

async function authenticateApiKey(db: Db, token: string): Promise<Principal | null> {
  const now = new Date();
  const [row] = await apiKeyByHash(db).execute({
    hash: hashToken(token),
    now: now.toISOString(),
  });
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(apiKeys.id, row.id));
  }
  return principalOf(row, { kind: 'api_key', id: row.id }, row.scopes as Scope[]);
}
