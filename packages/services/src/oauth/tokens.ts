import { createHash } from 'node:crypto';
import { constantTimeEqual, generateOAuthSecret, hashToken, isOAuthSecret } from '@chorus/auth';
import {
  and,
  eq,
  isNull,
  oauthAuthorizationCodes,
  oauthGrants,
  oauthTokens,
  sql,
  type Db,
} from '@chorus/db';
import type { Scope } from '@chorus/validators';
import { newId } from '../shared/ids';
import type { OAuthClientRow } from './clients';
import { invalidGrant, OAuthError } from './errors';
import { ACCESS_TOKEN_TTL_SECONDS, grantLifetimeMs, REFRESH_TOKEN_TTL_MS } from './lifetimes';
import { formatScope, parseScope } from './scopes';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The token endpoint's success body (RFC 6749 §5.1, docs/security.md). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * A new access and refresh token for a grant (the refresh token keeps the grant's scopes).
 * Neither outlives the grant's absolute lifetime (grantLifetimeMs from consent).
 */
async function issueTokens(
  tx: Tx | Db,
  grant: { id: string; scopes: string[]; createdAt: Date },
  accessScopes: string[] = grant.scopes,
): Promise<TokenResponse> {
  const access = generateOAuthSecret('accessToken');
  const refresh = generateOAuthSecret('refreshToken');
  const now = Date.now();
  const grantEnds = grant.createdAt.getTime() + grantLifetimeMs();
  const expiresIn = Math.min(ACCESS_TOKEN_TTL_SECONDS, Math.floor((grantEnds - now) / 1000));
  await tx.insert(oauthTokens).values([
    {
      id: newId('tok'),
      grantId: grant.id,
      kind: 'access',
      tokenHash: access.hash,
      scopes: accessScopes,
      // Issued and expiring by one clock read: introspection's exp - iat is expires_in (the
      // database's now() is the transaction's start, a moment earlier).
      createdAt: new Date(now),
      expiresAt: new Date(now + expiresIn * 1000),
    },
    {
      id: newId('tok'),
      grantId: grant.id,
      kind: 'refresh',
      tokenHash: refresh.hash,
      scopes: grant.scopes,
      createdAt: new Date(now),
      expiresAt: new Date(Math.min(now + REFRESH_TOKEN_TTL_MS, grantEnds)),
    },
  ]);
  return {
    access_token: access.secret,
    token_type: 'Bearer',
    expires_in: expiresIn,
    refresh_token: refresh.secret,
    scope: formatScope(accessScopes),
  };
}

/** Ends a grant: every token issued under it stops working at once. */
export async function revokeGrant(db: Db | Tx, grantId: string) {
  await db
    .update(oauthGrants)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * A failure found inside a transaction that must still leave a trace (the grant revoked):
 * the transaction commits, then the error is thrown.
 */
type Outcome = { ok: TokenResponse } | { error: OAuthError };

async function settle(run: Promise<Outcome>): Promise<TokenResponse> {
  const outcome = await run;
  if ('error' in outcome) throw outcome.error;
  return outcome.ok;
}

/** grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). */
export async function exchangeAuthorizationCode(opts: {
  db: Db;
  client: OAuthClientRow;
  code: string | undefined;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
}): Promise<TokenResponse> {
  const { db, client, code, redirectUri, codeVerifier } = opts;
  if (!code) throw new OAuthError('invalid_request', 'The code parameter is required.');
  if (!isOAuthSecret('code', code)) throw invalidGrant('The authorization code is invalid.');
  return settle(
    db.transaction(async (tx): Promise<Outcome> => {
      const fail = (description: string): Outcome => ({ error: invalidGrant(description) });
      // The row lock makes two concurrent exchanges of one code take turns: one wins, the
      // other sees the code used.
      const [row] = await tx
        .select()
        .from(oauthAuthorizationCodes)
        .where(eq(oauthAuthorizationCodes.codeHash, hashToken(code)))
        .for('update');
      if (!row || row.clientId !== client.id) return fail('The authorization code is invalid.');
      if (row.usedAt) {
        // RFC 6749 §4.1.2: a code used twice was stolen once; end what it gave.
        if (row.grantId) await revokeGrant(tx, row.grantId);
        return fail('The authorization code was already used; its tokens are revoked.');
      }
      if (row.expiresAt.getTime() <= Date.now()) return fail('The authorization code expired.');
      const redirectMatches =
        redirectUri === undefined ? !row.redirectUriGiven : redirectUri === row.redirectUri;
      if (!redirectMatches) {
        return fail('redirect_uri does not match the one of the authorization request.');
      }
      if (row.codeChallenge) {
        if (!codeVerifier) return fail('code_verifier is required (PKCE).');
        if (
          !CODE_VERIFIER.test(codeVerifier) ||
          !constantTimeEqual(s256(codeVerifier), row.codeChallenge)
        ) {
          return fail('code_verifier does not match the code_challenge.');
        }
      } else if (codeVerifier !== undefined) {
        return fail('code_verifier was sent, but the authorization request had no code_challenge.');
      }
      const grantId = newId('grt');
      // Consent is when the code was issued: the grant's lifetime counts from there.
      const consentedAt = row.createdAt;
      await tx.insert(oauthGrants).values({
        id: grantId,
        clientId: client.id,
        accountId: row.accountId,
        userId: row.userId,
        scopes: row.scopes,
        createdAt: consentedAt,
      });
      await tx
        .update(oauthAuthorizationCodes)
        .set({ usedAt: sql`now()`, grantId })
        .where(eq(oauthAuthorizationCodes.codeHash, row.codeHash));
      const grant = { id: grantId, scopes: row.scopes, createdAt: consentedAt };
      return { ok: await issueTokens(tx, grant) };
    }),
  );
}

/**
 * grant_type=refresh_token (RFC 6749 §6) with rotation: the presented refresh token is
 * retired and a new one issued; presenting a retired one again means it leaked, so the
 * whole grant is revoked (RFC 9700 §4.14.2).
 */
export async function refreshAccessToken(opts: {
  db: Db;
  client: OAuthClientRow;
  refreshToken: string | undefined;
  scope: string | undefined;
}): Promise<TokenResponse> {
  const { db, client, refreshToken, scope } = opts;
  if (!refreshToken) {
    throw new OAuthError('invalid_request', 'The refresh_token parameter is required.');
  }
  if (!isOAuthSecret('refreshToken', refreshToken)) {
    throw invalidGrant('The refresh token is invalid.');
  }
  return settle(
    db.transaction(async (tx): Promise<Outcome> => {
      const fail = (description: string): Outcome => ({ error: invalidGrant(description) });
      const [row] = await tx
        .select({ token: oauthTokens, grant: oauthGrants })
        .from(oauthTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
        .where(
          and(eq(oauthTokens.tokenHash, hashToken(refreshToken)), eq(oauthTokens.kind, 'refresh')),
        )
        .for('update', { of: oauthTokens });
      if (!row || row.grant.clientId !== client.id) return fail('The refresh token is invalid.');
      const { token, grant } = row;
      if (token.revokedAt || grant.revokedAt) return fail('The refresh token was revoked.');
      if (token.rotatedAt) {
        await revokeGrant(tx, grant.id);
        return fail('The refresh token was already used; the grant is revoked.');
      }
      if (token.expiresAt.getTime() <= Date.now()) return fail('The refresh token expired.');
      if (grant.createdAt.getTime() + grantLifetimeMs() <= Date.now()) {
        return fail('The grant reached its lifetime; send the user to authorize again.');
      }
      let accessScopes: Scope[] = grant.scopes as Scope[];
      if (scope !== undefined) {
        // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
        try {
          accessScopes = parseScope(scope, grant.scopes, 'grant');
        } catch (error) {
          if (error instanceof OAuthError) return { error };
          throw error;
        }
      }
      await tx
        .update(oauthTokens)
        .set({ rotatedAt: sql`now()` })
        .where(eq(oauthTokens.id, token.id));
      return { ok: await issueTokens(tx, grant, accessScopes) };
    }),
  );
}

/** The token endpoint (RFC 6749 §3.2) once the client is authenticated: one grant type each. */
export async function grantTokens(opts: {
  db: Db;
  client: OAuthClientRow;
  params: Record<string, string | undefined>;
}): Promise<TokenResponse> {
  const { db, client, params } = opts;
  switch (params.grant_type) {
    case undefined:
      throw new OAuthError('invalid_request', 'The grant_type parameter is required.');
    case 'authorization_code':
      return exchangeAuthorizationCode({
        db,
        client,
        code: params.code,
        redirectUri: params.redirect_uri,
        codeVerifier: params.code_verifier,
      });
    case 'refresh_token':
      return refreshAccessToken({
        db,
        client,
        refreshToken: params.refresh_token,
        scope: params.scope,
      });
    default:
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token.',
      );
  }
}
