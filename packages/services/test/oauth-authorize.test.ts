import { hashToken } from '@chorus/auth';
import { eq, oauthClients, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateClient,
  authorizationRedirect,
  createAccount,
  deleteOAuthClient,
  issueAuthorizationCode,
  listOAuthClients,
  rotateOAuthClientSecret,
  validateAuthorizeRequest,
  type AuthorizeOutcome,
} from '../src';
import { adminOf, oauthFixture, pkce, REDIRECT } from './oauth-fixtures';

let database: Database;
let f: Awaited<ReturnType<typeof oauthFixture>>;
beforeAll(async () => {
  database = await createTestDatabase();
  f = await oauthFixture(database.db);
});
afterAll(() => database.close());

describe('client registration', () => {
  it('shows a confidential client secret once and keeps only its hash', async () => {
    const { client, clientSecret } = f.confidential;
    expect(client.id).toMatch(/^app_[0-9A-Z]{26}$/);
    expect(clientSecret).toMatch(/^cso_cs_[0-9A-Za-z]{43}$/);
    const [row] = await database.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.id, client.id));
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    expect(row?.secretHash).toBe(hashToken(clientSecret ?? ''));
    expect(client.secretLastFour).toBe(clientSecret?.slice(-4));
    expect(f.publicClient.clientSecret).toBeNull();
  });

  it('lists only the clients of the account, and 404s on a foreign client', async () => {
    const other = await oauthFixture(database.db);
    const mine = await listOAuthClients({ db: database.db, principal: f.admin });
    expect(mine.map((c) => c.id).sort()).toEqual(
      [f.confidential.client.id, f.publicClient.client.id].sort(),
    );
    await expect(
      deleteOAuthClient({
        db: database.db,
        principal: f.admin,
        clientId: other.confidential.client.id,
      }),
    ).rejects.toMatchObject({ code: 'resource_not_found' });
  });

  it('rotates a secret: the old one stops working at once', async () => {
    const made = await f.make(true);
    const rotated = await rotateOAuthClientSecret({
      db: database.db,
      principal: f.admin,
      clientId: made.client.id,
    });
    await expect(
      authenticateClient(database.db, {
        clientId: made.client.id,
        clientSecret: made.clientSecret ?? '',
      }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(
      authenticateClient(database.db, {
        clientId: made.client.id,
        clientSecret: rotated.clientSecret,
      }),
    ).resolves.toMatchObject({ id: made.client.id });
  });
});

describe('client authentication', () => {
  const refused = async (clientId: string | undefined, clientSecret: string | undefined) => {
    const error = await authenticateClient(database.db, { clientId, clientSecret }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
  };

  it('accepts a confidential client with its secret', async () => {
    await expect(
      authenticateClient(database.db, {
        clientId: f.confidential.client.id,
        clientSecret: f.confidential.clientSecret ?? '',
      }),
    ).resolves.toMatchObject({ id: f.confidential.client.id });
  });
  it('refuses a wrong secret', () => refused(f.confidential.client.id, `cso_cs_${'a'.repeat(43)}`));
  it('refuses a missing secret', () => refused(f.confidential.client.id, undefined));
  it('refuses an unknown client', () => refused('app_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x'));
  it('refuses a malformed client id', () => refused('nope', undefined));
  it('refuses a missing client id', () => refused(undefined, undefined));
  it('refuses a public client that sends a secret', () =>
    refused(f.publicClient.client.id, `cso_cs_${'a'.repeat(43)}`));
  it('accepts a public client by its id', async () => {
    await expect(
      authenticateClient(database.db, {
        clientId: f.publicClient.client.id,
        clientSecret: undefined,
      }),
    ).resolves.toMatchObject({ confidential: false });
  });
});

describe('the authorize request', () => {
  const validate = (params: Record<string, string | string[]>) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      for (const one of [value].flat()) search.append(name, one);
    }
    return validateAuthorizeRequest(database.db, search);
  };
  const base = () => ({
    client_id: f.confidential.client.id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'read',
    state: 'st-1',
  });
  const expectPage = (outcome: AuthorizeOutcome) => expect(outcome.kind).toBe('invalid_client');
  const expectRedirect = (outcome: AuthorizeOutcome, error: string) => {
    expect(outcome).toMatchObject({ kind: 'redirect_error', redirectUri: REDIRECT, state: 'st-1' });
    if (outcome.kind === 'redirect_error') expect(outcome.error.error).toBe(error);
  };

  it('is valid with a registered client and redirect URI', async () => {
    const outcome = await validate(base());
    expect(outcome).toMatchObject({
      kind: 'valid',
      request: { redirectUri: REDIRECT, scopes: ['read'], state: 'st-1' },
    });
  });

  it('shows a page, never redirects, for a missing, repeated or unknown client', async () => {
    const { client_id: _, ...rest } = base();
    expectPage(await validate(rest));
    expectPage(await validate({ ...base(), client_id: [f.confidential.client.id, 'app_x'] }));
    expectPage(await validate({ ...base(), client_id: 'app_01ARZ3NDEKTSV4RRFFQ69G5FAV' }));
  });

  it('shows a page for a NUL character in any parameter (never a database error)', async () => {
    expectPage(await validate({ ...base(), client_id: `${f.confidential.client.id}\0` }));
    expectPage(await validate({ ...base(), state: 'st\0' }));
    expectPage(await validate({ ...base(), code_challenge: 'a\0' }));
  });

  it('shows a page for a redirect URI that does not match exactly', async () => {
    expectPage(await validate({ ...base(), redirect_uri: `${REDIRECT}/` }));
    expectPage(await validate({ ...base(), redirect_uri: `${REDIRECT}?x=1` }));
    expectPage(await validate({ ...base(), redirect_uri: REDIRECT.toUpperCase() }));
    expectPage(await validate({ ...base(), redirect_uri: [REDIRECT, REDIRECT] }));
  });

  it('needs redirect_uri when several are registered, and defaults to a single one', async () => {
    const { redirect_uri: _, ...rest } = base();
    expectPage(await validate(rest));
    const single = await f.make(true);
    await database.db
      .update(oauthClients)
      .set({ redirectUris: [REDIRECT] })
      .where(eq(oauthClients.id, single.client.id));
    const outcome = await validate({ ...rest, client_id: single.client.id });
    expect(outcome).toMatchObject({
      kind: 'valid',
      request: { redirectUri: REDIRECT, redirectUriGiven: false },
    });
  });

  it('redirects invalid_request for a missing response_type', async () => {
    const { response_type: _, ...rest } = base();
    expectRedirect(await validate(rest), 'invalid_request');
  });
  it('redirects unsupported_response_type for anything but code', async () => {
    expectRedirect(
      await validate({ ...base(), response_type: 'token' }),
      'unsupported_response_type',
    );
  });
  it('redirects invalid_request for a repeated parameter', async () => {
    expectRedirect(await validate({ ...base(), scope: ['read', 'write'] }), 'invalid_request');
  });
  it('redirects invalid_scope for a missing, unknown or not allowed scope', async () => {
    const { scope: _, ...rest } = base();
    expectRedirect(await validate(rest), 'invalid_scope');
    expectRedirect(await validate({ ...base(), scope: 'read admin' }), 'invalid_scope');
    const narrow = await f.make(true, ['content:read']);
    const outcome = await validate({ ...base(), client_id: narrow.client.id, scope: 'read' });
    expectRedirect(outcome, 'invalid_scope');
  });
  it('accepts scopes separated by commas, spaces or both', async () => {
    const outcome = await validate({ ...base(), scope: 'read,write content:read, analytics:read' });
    expect(outcome).toMatchObject({
      request: { scopes: ['read', 'write', 'content:read', 'analytics:read'] },
    });
  });
  it('redirects invalid_request for PKCE other than S256', async () => {
    const { challenge } = pkce();
    expectRedirect(
      await validate({ ...base(), code_challenge: challenge, code_challenge_method: 'plain' }),
      'invalid_request',
    );
    expectRedirect(await validate({ ...base(), code_challenge: challenge }), 'invalid_request');
    expectRedirect(await validate({ ...base(), code_challenge_method: 'S256' }), 'invalid_request');
    expectRedirect(
      await validate({ ...base(), code_challenge: 'short', code_challenge_method: 'S256' }),
      'invalid_request',
    );
  });
  it('requires PKCE of a public client', async () => {
    const outcome = await validate({ ...base(), client_id: f.publicClient.client.id });
    expectRedirect(outcome, 'invalid_request');
    const { challenge } = pkce();
    const withPkce = await validate({
      ...base(),
      client_id: f.publicClient.client.id,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(withPkce.kind).toBe('valid');
  });

  it('issues a code only to users of the client’s account', async () => {
    const outcome = await validate(base());
    if (outcome.kind !== 'valid') throw new Error('expected valid');
    const stranger = await createAccount(database.db, {
      name: 'Stranger',
      admin: { email: 'stranger@oauth.test', password: 'password-stranger' },
    });
    await expect(
      issueAuthorizationCode({
        db: database.db,
        request: outcome.request,
        user: { userId: stranger.adminId, accountId: stranger.accountId },
      }),
    ).rejects.toMatchObject({ error: 'access_denied' });
    const code = await issueAuthorizationCode({
      db: database.db,
      request: outcome.request,
      user: adminOf(f.accountId, f.adminId),
    });
    expect(code).toMatch(/^cso_ac_[0-9A-Za-z]{43}$/);
  });

  it('keeps the redirect URI’s own query when answering', () => {
    const url = authorizationRedirect('https://a.test/cb?tenant=7', { code: 'c', state: 's s' });
    expect(url).toBe('https://a.test/cb?tenant=7&code=c&state=s+s');
  });
});
