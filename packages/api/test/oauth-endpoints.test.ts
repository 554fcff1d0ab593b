import { createHash, randomBytes } from 'node:crypto';
import { hashToken } from '@chorus/auth';
import { eq, oauthTokens } from '@chorus/db';
import {
  issueAuthorizationCode,
  validateAuthorizeRequest,
  type OAuthClientRow,
} from '@chorus/services';
import { SCOPES, type Scope } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthEndpoints } from '../src/oauth';
import { startHarness, type Harness } from './harness';
import { REDIRECT, registerClient } from './oauth-clients';

let h: Harness;
let endpoints: ReturnType<typeof createOAuthEndpoints>;
let confidential: { row: OAuthClientRow; secret: string };
let publicClient: OAuthClientRow;

beforeAll(async () => {
  h = await startHarness();
  endpoints = createOAuthEndpoints({ getDatabase: async () => h.database });
  confidential = await registerClient(h, true);
  publicClient = (await registerClient(h, false)).row;
});
afterAll(() => h.close());

async function codeFor(client: OAuthClientRow, scope: string, challenge?: string) {
  const params = new URLSearchParams({
    client_id: client.id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    ...(challenge && { code_challenge: challenge, code_challenge_method: 'S256' }),
  });
  const outcome = await validateAuthorizeRequest(h.db, params);
  if (outcome.kind !== 'valid') throw new Error('authorize refused');
  return issueAuthorizationCode({
    db: h.db,
    request: outcome.request,
    user: { userId: h.main.adminId, accountId: h.main.accountId },
  });
}

const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;

async function post(
  handler: (req: Request) => Promise<Response>,
  path: string,
  body: Record<string, string> | string,
  opts: { json?: boolean; authorization?: string; contentType?: string } = {},
) {
  const headers = new Headers();
  if (opts.authorization) headers.set('authorization', opts.authorization);
  const text =
    typeof body === 'string'
      ? body
      : opts.json
        ? JSON.stringify(body)
        : new URLSearchParams(body).toString();
  headers.set(
    'content-type',
    opts.contentType ?? (opts.json ? 'application/json' : 'application/x-www-form-urlencoded'),
  );
  const res = await handler(
    new Request(`http://localhost:3000${path}`, { method: 'POST', headers, body: text }),
  );
  const raw = await res.text();
  return { res, status: res.status, json: raw ? JSON.parse(raw) : undefined };
}

const token = (body: Record<string, string> | string, opts?: Parameters<typeof post>[3]) =>
  post(endpoints.token, '/oauth/token', body, opts);

async function tokensFor(scope: string) {
  const code = await codeFor(confidential.row, scope);
  const { json } = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: confidential.row.id,
    client_secret: confidential.secret,
  });
  return json as { access_token: string; refresh_token: string };
}

describe('POST /oauth/token', () => {
  it('exchanges a code sent as a form with HTTP Basic, and is not cached', async () => {
    const code = await codeFor(confidential.row, 'read');
    const { status, json, res } = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(confidential.row.id, confidential.secret) },
    );
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read' });
  });

  it('exchanges a code sent as JSON with credentials in the body (the API spec’s way)', async () => {
    const code = await codeFor(confidential.row, 'read,write');
    const { status, json } = await token(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.row.id,
        client_secret: confidential.secret,
      },
      { json: true },
    );
    expect(status).toBe(200);
    expect(json.scope).toBe('read write');
  });

  it('serves a public client with PKCE and no secret', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFor(publicClient, 'read', challenge);
    const { status } = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: publicClient.id,
      code_verifier: verifier,
    });
    expect(status).toBe(200);
  });

  it('answers invalid_client 401, with a Basic challenge when Basic was used', async () => {
    const viaBasic = await token(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: basic(confidential.row.id, 'wrong') },
    );
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.json).toEqual({
      error: 'invalid_client',
      error_description: expect.any(String),
    });
    expect(viaBasic.res.headers.get('www-authenticate')).toMatch(/^Basic /);
    const viaBody = await token({
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: confidential.row.id,
      client_secret: 'wrong',
    });
    expect(viaBody.status).toBe(401);
    expect(viaBody.res.headers.get('www-authenticate')).toBeNull();
  });

  it('challenges with Basic a malformed Basic header too, and says it is malformed', async () => {
    const malformed = [
      `Basic ${btoa('app_without_colon')}`,
      'Basic !!!notb64',
      'Basic',
      'basic   ',
      `Basic ${btoa('app%zz:secret')}`,
    ];
    for (const authorization of malformed) {
      for (const handler of [endpoints.token, endpoints.revoke, endpoints.introspect]) {
        const { status, json, res } = await post(
          handler,
          '/oauth/x',
          { grant_type: 'refresh_token', refresh_token: 'x', token: 'x' },
          { authorization },
        );
        expect({ authorization, status, error: json.error }).toEqual({
          authorization,
          status: 401,
          error: 'invalid_client',
        });
        expect(json.error_description).toMatch(/HTTP Basic/);
        expect(json.error_description).not.toMatch(/request body/);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      }
    }
    // Another scheme is no Basic client: no Basic challenge.
    const bearer = await token(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: 'Bearer abc' },
    );
    expect(bearer.json.error).toBe('invalid_client');
    expect(bearer.res.headers.get('www-authenticate')).toBeNull();
  });

  it('answers invalid_request for two ways of client authentication, repeated parameters, other bodies', async () => {
    const both = await token(
      { grant_type: 'refresh_token', refresh_token: 'x', client_secret: confidential.secret },
      { authorization: basic(confidential.row.id, confidential.secret) },
    );
    expect(both.json.error).toBe('invalid_request');
    const repeated = await token(
      `grant_type=refresh_token&grant_type=authorization_code&client_id=${publicClient.id}`,
    );
    expect(repeated.json.error).toBe('invalid_request');
    const xml = await token('<a/>', { contentType: 'application/xml' });
    expect(xml.status).toBe(400);
    expect(xml.json.error).toBe('invalid_request');
    const broken = await token('{', { json: true });
    expect(broken.json.error).toBe('invalid_request');
  });

  it('answers unsupported_grant_type and invalid_grant with 400', async () => {
    const creds = { client_id: confidential.row.id, client_secret: confidential.secret };
    const password = await token({ grant_type: 'password', ...creds });
    expect([password.status, password.json.error]).toEqual([400, 'unsupported_grant_type']);
    const bad = await token({ grant_type: 'authorization_code', code: 'nope', ...creds });
    expect([bad.status, bad.json.error]).toEqual([400, 'invalid_grant']);
  });
});

describe('POST /oauth/revoke and /oauth/introspect', () => {
  const auth = () => ({ authorization: basic(confidential.row.id, confidential.secret) });

  it('revokes (200 even for unknown tokens) and introspects', async () => {
    const tokens = await tokensFor('read');
    const live = await post(
      endpoints.introspect,
      '/oauth/introspect',
      { token: tokens.access_token },
      auth(),
    );
    expect(live.json).toMatchObject({
      active: true,
      scope: 'read',
      client_id: confidential.row.id,
    });
    const unknown = await post(endpoints.revoke, '/oauth/revoke', { token: 'unknown' }, auth());
    expect(unknown.status).toBe(200);
    const revoked = await post(
      endpoints.revoke,
      '/oauth/revoke',
      { token: tokens.refresh_token },
      auth(),
    );
    expect(revoked.status).toBe(200);
    const dead = await post(
      endpoints.introspect,
      '/oauth/introspect',
      { token: tokens.access_token },
      auth(),
    );
    expect(dead.json).toEqual({ active: false });
  });

  it('requires client authentication, and a confidential client for introspection', async () => {
    const anonymous = await post(endpoints.introspect, '/oauth/introspect', { token: 'x' });
    expect(anonymous.status).toBe(401);
    const pub = await post(endpoints.introspect, '/oauth/introspect', {
      token: 'x',
      client_id: publicClient.id,
    });
    expect([pub.status, pub.json.error]).toEqual([401, 'invalid_client']);
    const missing = await post(endpoints.revoke, '/oauth/revoke', {}, auth());
    expect(missing.json.error).toBe('invalid_request');
  });
});

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  it('are invalid_request in any parameter, form or JSON, on every endpoint', async () => {
    for (const handler of [endpoints.token, endpoints.revoke, endpoints.introspect]) {
      const form = await post(handler, '/oauth/x', { token: 'a\0', client_id: 'app_\0' });
      expect(form.status).toBe(400);
      expect(form.json.error).toBe('invalid_request');
      const json = await post(
        handler,
        '/oauth/x',
        { token: 'a', client_id: 'b\0' },
        { json: true },
      );
      expect(json.status).toBe(400);
      expect(json.json.error).toBe('invalid_request');
    }
  });

  it('never come back raw in a message naming the parameter (repeated, not a string)', async () => {
    const repeated = await post(endpoints.token, '/oauth/x', 'a%00b=1&a%00b=2');
    expect(repeated.json.error).toBe('invalid_request');
    expect(repeated.json.error_description).toBe('The a\\u0000b parameter is repeated.');
    const typed = await post(endpoints.token, '/oauth/x', '{"k\\u0000":1}', { json: true });
    expect(typed.json.error_description).toBe('The k\\u0000 parameter must be a string.');
    const long = await post(
      endpoints.token,
      '/oauth/x',
      `${'n'.repeat(5000)}=1&${'n'.repeat(5000)}=2`,
    );
    expect(long.json.error_description.length).toBeLessThan(200);
  });

  it('are invalid_client in HTTP Basic credentials', async () => {
    for (const handler of [endpoints.token, endpoints.revoke, endpoints.introspect]) {
      const { status, json } = await post(
        handler,
        '/oauth/x',
        { token: 'a' },
        {
          authorization: basic('app_\0', 'secret'),
        },
      );
      expect(status).toBe(401);
      expect(json.error).toBe('invalid_client');
    }
  });
});

describe('GET /.well-known/oauth-authorization-server', () => {
  it('describes the server on the request origin, or CHORUS_PUBLIC_URL', async () => {
    const res = endpoints.metadata(
      new Request('http://chorus.test:8080/.well-known/oauth-authorization-server'),
    );
    const doc = await res.json();
    expect(doc).toMatchObject({
      issuer: 'http://chorus.test:8080',
      authorization_endpoint: 'http://chorus.test:8080/oauth/authorize',
      token_endpoint: 'http://chorus.test:8080/oauth/token',
      revocation_endpoint: 'http://chorus.test:8080/oauth/revoke',
      introspection_endpoint: 'http://chorus.test:8080/oauth/introspect',
      scopes_supported: [...SCOPES],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    const proxied = endpoints.metadata(
      new Request('http://localhost:3000/.well-known/oauth-authorization-server', {
        headers: { 'x-forwarded-host': 'chorus.example', 'x-forwarded-proto': 'https' },
      }),
    );
    expect((await proxied.json()).issuer).toBe('https://chorus.example');
    process.env.CHORUS_PUBLIC_URL = 'https://api.chorus.example/';
    try {
      const configured = await endpoints.metadata(new Request('http://10.0.0.1/x')).json();
      expect(configured.issuer).toBe('https://api.chorus.example');
    } finally {
      delete process.env.CHORUS_PUBLIC_URL;
    }
  });
});

describe('OAuth access tokens on the REST API', () => {
  it('work like API keys, through the same scope checks', async () => {
    const { access_token } = await tokensFor('read');
    const ok = await h.call('GET', '/api/users', { token: access_token });
    expect(ok.status).toBe(200);
    // An OAuth token's budget is twice the API key's, per (account, user, client).
    expect(ok.headers.get('x-ratelimit-limit')).toBe('1200');
    const write = await h.call('POST', '/api/users', {
      token: access_token,
      body: { name: 'X', email: 'x@oauth.test', password: 'password-x' },
    });
    expect(write.status).toBe(403);
    expect(write.json.error).toMatchObject({
      code: 'insufficient_scope',
      details: { requiredScopes: ['write'] },
    });
  });

  it('a content:read token is refused on /api/users with 403 insufficient_scope', async () => {
    const { access_token } = await tokensFor('content:read');
    const { status, json } = await h.call('GET', '/api/users', { token: access_token });
    expect(status).toBe(403);
    expect(json.error.code).toBe('insufficient_scope');
  });

  it('answers 401 for an expired or a revoked token', async () => {
    const scopes: Scope[] = ['read'];
    const first = await tokensFor(scopes.join(' '));
    await h.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.tokenHash, hashToken(first.access_token)));
    expect((await h.call('GET', '/api/users', { token: first.access_token })).status).toBe(401);
    const second = await tokensFor('read');
    await post(
      endpoints.revoke,
      '/oauth/revoke',
      { token: second.access_token },
      {
        authorization: basic(confidential.row.id, confidential.secret),
      },
    );
    const refused = await h.call('GET', '/api/users', { token: second.access_token });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});
