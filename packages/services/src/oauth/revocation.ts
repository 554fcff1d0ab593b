import { hashToken } from '@chorus/auth';
import { eq, oauthGrants, oauthTokens, sql, type Db } from '@chorus/db';
import type { OAuthClientRow } from './clients';
import { revokeGrant } from './tokens';

/** A token of this client, found by its hash, with its grant; undefined for anything else. */
export async function findClientToken(db: Db, client: OAuthClientRow, token: string) {
  if (!token) return undefined;
  const [row] = await db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.tokenHash, hashToken(token)))
    .limit(1);
  // Another client's token is treated as unknown: no client learns about others' tokens.
  return row && row.grant.clientId === client.id ? row : undefined;
}

/**
 * RFC 7009: revoking an access token ends that token; revoking a refresh token ends the
 * whole grant (docs/security.md). Unknown, foreign or already dead tokens change nothing, and
 * the caller answers 200 all the same (RFC 7009 §2.2). `token_type_hint` is not needed: the token's
 * prefix and its row say what it is.
 */
export async function revokeToken(opts: { db: Db; client: OAuthClientRow; token: string }) {
  const row = await findClientToken(opts.db, opts.client, opts.token);
  if (!row) return;
  if (row.token.kind === 'refresh') {
    await revokeGrant(opts.db, row.grant.id);
    return;
  }
  await opts.db
    .update(oauthTokens)
    .set({ revokedAt: sql`now()` })
    .where(eq(oauthTokens.id, row.token.id));
}
