import { authenticateBearer, hashToken } from '@chorus/auth';
import { eq, oauthAuthorizationCodes, oauthGrants, oauthTokens, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  grantLifetimeMs,
  grantTokens,
  introspectToken,
  revokeToken,
  type OAuthClientRow,
} from '../src';
import { authorize, oauthFixture, pkce, REDIRECT } from './oauth-fixtures';

let database: Database;
let f: Awaited<ReturnType<typeof oauthFixture>>;
let user: { userId: string; accountId: string };
beforeAll(async () => {
  database = await createTestDatabase();
  f = await oauthFixture(database.db);
  user = { userId: f.adminId, accountId: f.accountId };
});
afterAll(() => database.close());

const token = (client: OAuthClientRow, params: Record<string, string | undefined>) =>
  grantTokens({ db: database.db, client, params });

const exchange = (client: OAuthClientRow, code: string, extra: Record<string, string> = {}) =>
  token(client, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra });

const refresh = (client: OAuthClientRow, refreshToken: string, scope?: string) =>
  token(client, { grant_type: 'refresh_token', refresh_token: refreshToken, scope });

const fails = async (promise: Promise<unknown>, error: string) => {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(thrown).toMatchObject({ error, status: error === 'invalid_client' ? 401 : 400 });
};

const alive = async (accessToken: string) =>
  (await authenticateBearer(database.db, accessToken)) !== null;

/** A fresh grant of the confidential client: its tokens. */
async function tokens(scope = 'read write') {
  const code = await authorize(database.db, f.confidential.row, user, { scope });
  return exchange(f.confidential.row, code);
}

describe('the authorization_code grant', () => {
  it('answers the token response of docs/security.md', async () => {
    const answer = await tokens();
    expect(answer).toEqual({
      access_token: expect.stringMatching(/^cso_at_[0-9A-Za-z]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^cso_rt_[0-9A-Za-z]{43}$/),
      scope: 'read write',
    });
    const rows = await database.db.select().from(oauthTokens);
    expect(JSON.stringify(rows)).not.toContain(answer.access_token);
    expect(rows.some((r) => r.tokenHash === hashToken(answer.access_token))).toBe(true);
  });

  it('gives a bearer principal acting as the user, with the scopes and the client', async () => {
    const answer = await tokens('read');
    const principal = await authenticateBearer(database.db, answer.access_token);
    expect(principal).toMatchObject({
      accountId: f.accountId,
      userId: f.adminId,
      role: 'admin',
      scopes: ['read'],
      credential: { kind: 'oauth', clientId: f.confidential.client.id },
    });
  });

  it('refuses a reused code and revokes the tokens issued from it', async () => {
    const code = await authorize(database.db, f.confidential.row, user);
    const first = await exchange(f.confidential.row, code);
    expect(await alive(first.access_token)).toBe(true);
    await fails(exchange(f.confidential.row, code), 'invalid_grant');
    expect(await alive(first.access_token)).toBe(false);
    await fails(refresh(f.confidential.row, first.refresh_token), 'invalid_grant');
  });

  it('lets only one of two concurrent exchanges of a code succeed', async () => {
    const code = await authorize(database.db, f.confidential.row, user);
    const results = await Promise.allSettled([
      exchange(f.confidential.row, code),
      exchange(f.confidential.row, code),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses an expired code', async () => {
    const code = await authorize(database.db, f.confidential.row, user);
    await database.db
      .update(oauthAuthorizationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthAuthorizationCodes.codeHash, hashToken(code)));
    await fails(exchange(f.confidential.row, code), 'invalid_grant');
  });

  it('refuses a code issued to another client', async () => {
    const { challenge, verifier } = pkce();
    const code = await authorize(database.db, f.publicClient.row, user, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await fails(exchange(f.confidential.row, code, { code_verifier: verifier }), 'invalid_grant');
    // Refused without being consumed: its own client still gets tokens with it.
    await expect(
      exchange(f.publicClient.row, code, { code_verifier: verifier }),
    ).resolves.toMatchObject({
      token_type: 'Bearer',
    });
  });

  it('refuses an unknown or malformed code', async () => {
    await fails(exchange(f.confidential.row, `cso_ac_${'A'.repeat(43)}`), 'invalid_grant');
    await fails(exchange(f.confidential.row, 'garbage'), 'invalid_grant');
  });

  it('refuses a redirect_uri other than the authorization request’s', async () => {
    const code = await authorize(database.db, f.confidential.row, user);
    await fails(
      exchange(f.confidential.row, code, { redirect_uri: 'http://localhost:8080/cb' }),
      'invalid_grant',
    );
    await fails(
      token(f.confidential.row, { grant_type: 'authorization_code', code }),
      'invalid_grant',
    );
  });

  it('checks PKCE: the verifier is required, and must match', async () => {
    const { challenge, verifier } = pkce();
    const withPkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    const code = await authorize(database.db, f.publicClient.row, user, withPkce);
    await fails(exchange(f.publicClient.row, code), 'invalid_grant');
    await fails(
      exchange(f.publicClient.row, code, { code_verifier: pkce().verifier }),
      'invalid_grant',
    );
    await fails(exchange(f.publicClient.row, code, { code_verifier: 'short' }), 'invalid_grant');
    const answer = await exchange(f.publicClient.row, code, { code_verifier: verifier });
    expect(answer.scope).toBe('read write');
  });

  it('refuses a code_verifier when the request had no challenge', async () => {
    const code = await authorize(database.db, f.confidential.row, user);
    await fails(
      exchange(f.confidential.row, code, { code_verifier: pkce().verifier }),
      'invalid_grant',
    );
  });

  it('answers invalid_request without a code, and for a missing or unknown grant_type', async () => {
    await fails(token(f.confidential.row, { grant_type: 'authorization_code' }), 'invalid_request');
    await fails(token(f.confidential.row, {}), 'invalid_request');
    await fails(token(f.confidential.row, { grant_type: 'password' }), 'unsupported_grant_type');
    await fails(token(f.confidential.row, { grant_type: 'refresh_token' }), 'invalid_request');
  });
});

describe('the refresh_token grant', () => {
  it('rotates: a new refresh token each time, the old one retired', async () => {
    const first = await tokens();
    const second = await refresh(f.confidential.row, first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(await alive(second.access_token)).toBe(true);
    const third = await refresh(f.confidential.row, second.refresh_token);
    expect(await alive(third.access_token)).toBe(true);
  });

  it('revokes the whole grant when a retired refresh token comes back', async () => {
    const first = await tokens();
    const second = await refresh(f.confidential.row, first.refresh_token);
    await fails(refresh(f.confidential.row, first.refresh_token), 'invalid_grant');
    expect(await alive(second.access_token)).toBe(false);
    await fails(refresh(f.confidential.row, second.refresh_token), 'invalid_grant');
  });

  it('narrows the scope on request, never widens it', async () => {
    const first = await tokens('read write');
    const narrow = await refresh(f.confidential.row, first.refresh_token, 'read');
    expect(narrow.scope).toBe('read');
    expect((await authenticateBearer(database.db, narrow.access_token))?.scopes).toEqual(['read']);
    // The new refresh token keeps the grant's scopes.
    const again = await refresh(f.confidential.row, narrow.refresh_token);
    expect(again.scope).toBe('read write');
    await fails(
      refresh(f.confidential.row, again.refresh_token, 'read content:write'),
      'invalid_scope',
    );
  });

  it('names a scope the grant lacks as not granted, though the client may ask for it', async () => {
    // The client is registered for every scope; the user granted `read content:read`.
    const first = await tokens('read content:read');
    const refused = await refresh(f.confidential.row, first.refresh_token, 'read write').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ error: 'invalid_scope', status: 400 });
    expect((refused as Error).message).toMatch(/^Scope not granted: write\./);
    expect((refused as Error).message).not.toMatch(/client/);
  });

  it('refuses another client’s, an unknown or an expired refresh token', async () => {
    const first = await tokens();
    await fails(refresh(f.publicClient.row, first.refresh_token), 'invalid_grant');
    await fails(refresh(f.confidential.row, `cso_rt_${'B'.repeat(43)}`), 'invalid_grant');
    await fails(refresh(f.confidential.row, first.access_token), 'invalid_grant');
    await database.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.tokenHash, hashToken(first.refresh_token)));
    await fails(refresh(f.confidential.row, first.refresh_token), 'invalid_grant');
  });
});

describe('the absolute lifetime of a grant', () => {
  const DAY = 24 * 3600_000;
  /** Moves a grant's consent `days` into the past. */
  const consentedDaysAgo = async (refreshToken: string, days: number) => {
    const [row] = await database.db
      .select({ grantId: oauthTokens.grantId })
      .from(oauthTokens)
      .where(eq(oauthTokens.tokenHash, hashToken(refreshToken)));
    await database.db
      .update(oauthGrants)
      .set({ createdAt: new Date(Date.now() - days * DAY) })
      .where(eq(oauthGrants.id, row?.grantId ?? ''));
  };

  it('keeps rotating within 90 days of consent, then refuses the refresh: consent again', async () => {
    const first = await tokens();
    await consentedDaysAgo(first.refresh_token, 89.99);
    const second = await refresh(f.confidential.row, first.refresh_token);
    // Nothing issued outlives the grant: about 14 minutes were left.
    expect(second.expires_in).toBeLessThan(900);
    expect(second.expires_in).toBeGreaterThan(800);
    await consentedDaysAgo(second.refresh_token, 90);
    await fails(refresh(f.confidential.row, second.refresh_token), 'invalid_grant');
  });

  it('is configurable, and a bad setting is refused by name', () => {
    expect(grantLifetimeMs({})).toBe(90 * DAY);
    expect(grantLifetimeMs({ CHORUS_OAUTH_GRANT_LIFETIME_DAYS: '30' })).toBe(30 * DAY);
    expect(() => grantLifetimeMs({ CHORUS_OAUTH_GRANT_LIFETIME_DAYS: '0' })).toThrow(
      /CHORUS_OAUTH_GRANT_LIFETIME_DAYS/,
    );
  });
});

describe('expiry of access tokens', () => {
  it('refuses an expired access token', async () => {
    const answer = await tokens();
    await database.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.tokenHash, hashToken(answer.access_token)));
    expect(await alive(answer.access_token)).toBe(false);
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (client: OAuthClientRow, value: string) =>
    revokeToken({ db: database.db, client, token: value });

  it('ends an access token alone', async () => {
    const answer = await tokens();
    await revoke(f.confidential.row, answer.access_token);
    expect(await alive(answer.access_token)).toBe(false);
    const next = await refresh(f.confidential.row, answer.refresh_token);
    expect(await alive(next.access_token)).toBe(true);
  });

  it('ends the whole grant for a refresh token', async () => {
    const answer = await tokens();
    await revoke(f.confidential.row, answer.refresh_token);
    expect(await alive(answer.access_token)).toBe(false);
    await fails(refresh(f.confidential.row, answer.refresh_token), 'invalid_grant');
  });

  it('does nothing, and does not fail, for unknown or foreign tokens', async () => {
    await expect(revoke(f.confidential.row, 'whatever')).resolves.toBeUndefined();
    const answer = await tokens();
    await revoke(f.publicClient.row, answer.access_token);
    expect(await alive(answer.access_token)).toBe(true);
  });
});

describe('introspection (RFC 7662)', () => {
  const introspect = (client: OAuthClientRow, value: string) =>
    introspectToken({ db: database.db, client, token: value, issuer: 'https://as.test' });

  it('describes a live access token and a live refresh token', async () => {
    const answer = await tokens('read');
    const info = await introspect(f.confidential.row, answer.access_token);
    expect(info).toEqual({
      active: true,
      scope: 'read',
      client_id: f.confidential.client.id,
      username: f.email,
      sub: f.adminId,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
      iss: 'https://as.test',
    });
    if (info.active) expect(info.exp - info.iat).toBe(3600);
    expect(await introspect(f.confidential.row, answer.refresh_token)).toMatchObject({
      active: true,
      scope: 'read',
    });
  });

  it("takes a token's iat and exp from one clock, not the database's and the server's", async () => {
    // The server's clock 10 minutes and 0.9 s ahead of the database's: a token issued and
    // expiring by two clocks would read a lifetime of 3600 s plus that difference. (On
    // PostgreSQL; the embedded PGlite reads the faked clock too, so there both agree anyway.)
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 600_900);
      const issuedFrom = Math.floor(Date.now() / 1000);
      const answer = await tokens('read');
      const info = await introspect(f.confidential.row, answer.access_token);
      expect(info.active && info.exp - info.iat).toBe(answer.expires_in);
      // Issued on the server's clock, the one expires_in was counted on.
      expect(info.active && info.iat).toBeGreaterThanOrEqual(issuedFrom);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers { active: false } alone for dead, unknown and foreign tokens', async () => {
    const answer = await tokens();
    expect(await introspect(f.publicClient.row, answer.access_token)).toEqual({ active: false });
    expect(await introspect(f.confidential.row, 'nothing')).toEqual({ active: false });
    const next = await refresh(f.confidential.row, answer.refresh_token);
    expect(await introspect(f.confidential.row, answer.refresh_token)).toEqual({ active: false });
    await revokeToken({ db: database.db, client: f.confidential.row, token: next.refresh_token });
    expect(await introspect(f.confidential.row, next.access_token)).toEqual({ active: false });
    expect(await introspect(f.confidential.row, answer.access_token)).toEqual({ active: false });
  });
});
