import { eq, integrationConnections, integrationOauthStates, sql } from '@chorus/db';
import { completeOAuthCallback, connectIntegration, STATE_TTL_MS } from '@chorus/services';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { startStandInProvider, type StandInProvider } from './stand-in-provider';

const APP = 'https://app.example.com/settings/integrations?tab=connected';

let h: Harness;
let provider: StandInProvider;
/** What the stand-in's profile endpoint answers (a test may change it). */
const profile = {
  name: 'Acme Social',
  accounts: { data: [{ name: 'Acme News' }, { name: 'Acme Deals' }] },
  profile: { display_name: 'Acme Design' },
};

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'a'.repeat(64);
  process.env.CHORUS_INTEGRATION_REDIRECT_ORIGINS = 'https://app.example.com';
  provider = await startStandInProvider({
    clientId: 'chorus-client',
    clientSecret: 'stand-in-secret',
    profile,
  });
  Object.assign(
    process.env,
    provider.env('CHORUS_INTEGRATION_FACEBOOK_'),
    provider.env('CHORUS_INTEGRATION_CANVA_'),
  );
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await provider?.close();
});

beforeEach(async () => {
  provider.reset();
  await h.db.delete(integrationConnections);
  await h.db.delete(integrationOauthStates);
});

/** POST connect, as the main account unless a token is given. */
async function connect(id: string, body: Record<string, unknown> = {}, token?: string) {
  return h.call('POST', `/api/integrations/connect/${id}`, { body, token });
}

/** The browser at the third party: follows authUrl to where the provider sends it back. */
async function authorize(authUrl: string): Promise<string> {
  const res = await fetch(authUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location');
  if (!location) throw new Error('no Location from the provider');
  return location;
}

/** The browser back at our callback: a real request, without credentials. */
const land = (callbackUrl: string) => h.handle(new Request(callbackUrl));

async function startFlow(id = 'facebook', redirectUrl: string | null = APP) {
  const started = await connect(id, redirectUrl ? { redirectUrl } : {});
  expect(started.status).toBe(200);
  return authorize(started.json.authUrl);
}

const connections = () => h.db.select().from(integrationConnections);
const connectedList = async (token?: string) =>
  (await h.call('GET', '/api/integrations/connected', { token })).json.data;

describe('OAuth connect', () => {
  it('sends the browser to the provider with client id, scopes, state and PKCE', async () => {
    const { status, json } = await connect('facebook', { redirectUrl: APP });
    expect(status).toBe(200);
    expect(json).toEqual({ status: 'pending', authUrl: expect.any(String), provider: 'facebook' });
    const url = new URL(json.authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.base}/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe('chorus-client');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe('http://localhost:3000/api/integrations/callback/facebook');
    expect(q.get('scope')).toBe(
      'pages_show_list,pages_read_engagement,pages_manage_posts,pages_manage_engagement,publish_video,pages_read_user_engagement',
    );
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash of the state is kept, and the verifier is encrypted.
    const [pending] = await h.db.select().from(integrationOauthStates);
    expect(pending?.stateHash).not.toContain(q.get('state'));
    expect(pending?.codeVerifier).toMatch(/^v1\./);
  });

  it('completes: callback exchanges the code, stores the connection, redirects back', async () => {
    const callbackUrl = await startFlow();
    const res = await land(callbackUrl);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe('https://app.example.com/settings/integrations');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      tab: 'connected',
      status: 'connected',
      provider: 'facebook',
    });
    expect(provider.state.clientAuth).toEqual(['body']);

    const list = await connectedList();
    expect(list).toEqual([
      {
        integrationId: 'facebook',
        status: 'connected',
        connectedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        lastSyncAt: expect.any(String),
        meta: { accountName: 'Acme Social', pages: ['Acme News', 'Acme Deals'] },
      },
    ]);
    // Nothing pending is left behind.
    expect(await h.db.select().from(integrationOauthStates)).toEqual([]);
  });

  it('stores the tokens encrypted, never in plaintext', async () => {
    await land(await startFlow());
    const [row] = await connections();
    expect(row?.credentials).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const raw = JSON.stringify([
      await h.db.execute(sql`select * from integration_connections`),
      await h.db.execute(sql`select * from channels`),
    ]);
    // The code exchange's two, the long-lived user token and the two Pages' tokens.
    expect(provider.state.issuedTokens).toHaveLength(5);
    for (const token of provider.state.issuedTokens) expect(raw).not.toContain(token);
  });

  it('uses client_secret_basic where the provider wants it (Canva) and reads its profile', async () => {
    const res = await land(await startFlow('canva'));
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('status')).toBe('connected');
    expect(provider.state.clientAuth).toEqual(['basic']);
    expect((await connectedList())[0].meta).toEqual({ accountName: 'Acme Design', pages: [] });
  });

  it("keeps a third party's names as clean lines: no NUL (which jsonb refuses) nor other control characters", async () => {
    const { name, accounts } = profile;
    profile.name = 'Acme\u0000 Social\u0007\nClub';
    profile.accounts = { data: [{ name: '\u0001Acme\tNews\u009f' }, { name: '\u0000' }] };
    try {
      const res = await land(await startFlow());
      expect(new URL(res.headers.get('location') ?? '').searchParams.get('status')).toBe(
        'connected',
      );
      expect((await connectedList())[0].meta).toEqual({
        accountName: 'Acme Social Club',
        pages: ['Acme News'],
      });
    } finally {
      Object.assign(profile, { name, accounts });
    }
  });

  it("returns to the dashboard's integrations page when no redirectUrl was given", async () => {
    const res = await land(await startFlow('facebook', null));
    expect(res.headers.get('location')).toBe(
      'http://localhost:3000/dashboard/integrations?status=connected&provider=facebook',
    );
  });

  it('refuses redirect URLs that are not absolute http(s) URLs, or off the allowed origins', async () => {
    for (const redirectUrl of [
      'javascript:alert(1)',
      '/relative',
      'https://u:p@evil.test/',
      'https://evil.test/steal',
      'https://app.example.com.evil.test/',
      'http://app.example.com/',
    ]) {
      const { status, json } = await connect('facebook', { redirectUrl });
      expect(status).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues[0].path).toBe('redirectUrl');
    }
  });
});

describe('OAuth callback state', () => {
  const expectInvalidState = async (res: Response) => {
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_state');
  };

  it('refuses a missing or tampered state, and stores nothing', async () => {
    const callbackUrl = new URL(await startFlow());
    const missing = new URL(callbackUrl);
    missing.searchParams.delete('state');
    await expectInvalidState(await land(missing.toString()));
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', `${callbackUrl.searchParams.get('state')}x`);
    await expectInvalidState(await land(tampered.toString()));
    // A state is bound to its integration as well.
    const elsewhere = new URL(callbackUrl);
    elsewhere.pathname = '/api/integrations/callback/canva';
    await expectInvalidState(await land(elsewhere.toString()));
    expect(provider.state.tokenRequests).toBe(0);
    expect(await connections()).toEqual([]);
  });

  it('refuses an expired state and drops it', async () => {
    const callbackUrl = await startFlow();
    await h.db.update(integrationOauthStates).set({ expiresAt: new Date(Date.now() - 60_000) });
    await expectInvalidState(await land(callbackUrl));
    expect(await h.db.select().from(integrationOauthStates)).toEqual([]);
    expect(await connections()).toEqual([]);
  });

  it('keeps a pending connection for 10 minutes, then drops it', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    const principal = {
      accountId: h.main.accountId,
      userId: h.main.adminId,
      role: 'admin' as const,
      tier: 'free' as const,
      credential: { kind: 'api_key' as const, id: 'key_test' },
      scopes: ['write' as const],
    };
    const start = async () => {
      const pending = await connectIntegration({
        db: h.db,
        principal,
        integrationId: 'facebook',
        origin: 'http://localhost:3000',
        redirectUrl: APP,
        now,
      });
      if (pending.status !== 'pending') throw new Error('expected an OAuth flow');
      return new URL(pending.authUrl).searchParams.get('state') ?? '';
    };
    const finish = (state: string, at: number) =>
      completeOAuthCallback({
        db: h.db,
        integrationId: 'facebook',
        state,
        code: 'unknown-code',
        now: new Date(now.getTime() + at),
      });

    const early = await start();
    const [pending] = await h.db.select().from(integrationOauthStates);
    expect(pending?.expiresAt.toISOString()).toBe('2030-01-01T00:10:00.000Z');
    // Accepted a moment before: the provider then refuses the made-up code.
    const { location } = await finish(early, STATE_TTL_MS - 1);
    expect(new URL(location).searchParams.get('error')).toBe('invalid_grant');

    const late = await start();
    await expect(finish(late, STATE_TTL_MS)).rejects.toMatchObject({ code: 'invalid_state' });
    expect(await h.db.select().from(integrationOauthStates)).toEqual([]);
  });

  it('uses a state once, even when two callbacks race', async () => {
    const callbackUrl = await startFlow();
    const [a, b] = await Promise.all([land(callbackUrl), land(callbackUrl)]);
    expect([a.status, b.status].sort()).toEqual([302, 400]);
    await expectInvalidState(await land(callbackUrl));
    expect(provider.state.tokenRequests).toBe(1);
    expect(await connections()).toHaveLength(1);
  });

  it('does not consume the state on HEAD', async () => {
    const callbackUrl = await startFlow();
    const head = await h.handle(new Request(callbackUrl, { method: 'HEAD' }));
    expect(head.status).toBe(401);
    expect((await land(callbackUrl)).status).toBe(302);
  });
});

describe('OAuth callback: keys the provider adds to the query (docs/integrations.md)', () => {
  const outcome = (res: Response) =>
    Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams);

  it('reads only its own keys: one it could not place still sends the browser back', async () => {
    for (const extra of ['foo[bar=1', 'a[]b=1', '__proto__[x]=1', 'state[x]=1', 'x=1&x=2']) {
      const res = await land(`${await startFlow()}&${extra}`);
      expect(res.status, extra).toBe(302);
      expect(outcome(res), extra).toMatchObject({ status: 'connected', provider: 'facebook' });
    }
    expect(await connectedList()).toHaveLength(1);
  });

  it('redirects a refusal, or a code it cannot read, with the error the dashboard shows', async () => {
    provider.state.denyWith = 'access_denied';
    const denied = await land(`${await startFlow()}&foo[bar=1`);
    expect(denied.status).toBe(302);
    expect(outcome(denied)).toMatchObject({ status: 'error', error: 'access_denied' });
    provider.state.denyWith = undefined;
    // `code[0]` is not the code: the callback has none, as when the provider sent none.
    const landing = new URL(await startFlow());
    const code = landing.searchParams.get('code') ?? '';
    landing.searchParams.delete('code');
    landing.searchParams.set('code[0]', code);
    const unread = await land(landing.toString());
    expect(unread.status).toBe(302);
    expect(outcome(unread)).toMatchObject({ status: 'error', error: 'invalid_request' });
    expect(provider.state.tokenRequests).toBe(0);
    expect(await connections()).toEqual([]);
  });
});

describe('OAuth callback: a code or error it cannot use (docs/integrations.md)', () => {
  const outcome = (res: Response) =>
    Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams);
  /** The provider's landing with `change` made to its query. */
  const landWith = async (change: (query: URLSearchParams) => void) => {
    const landing = new URL(await startFlow());
    change(landing.searchParams);
    return land(landing.toString());
  };

  it('with a valid state, sends the browser back with invalid_request, nothing exchanged', async () => {
    const unusable: [string, (query: URLSearchParams) => void][] = [
      ['code twice', (q) => q.append('code', 'another')],
      ['a code over 4096 characters', (q) => q.set('code', 'c'.repeat(4097))],
      ['error twice', (q) => (q.append('error', 'access_denied'), q.append('error', 'x'))],
      ['an error over 256 characters', (q) => q.set('error', 'e'.repeat(257))],
    ];
    for (const [what, change] of unusable) {
      const res = await landWith(change);
      expect(res.status, what).toBe(302);
      expect(outcome(res), what).toEqual({
        tab: 'connected',
        status: 'error',
        provider: 'facebook',
        error: 'invalid_request',
      });
    }
    expect(provider.state.tokenRequests).toBe(0);
    expect(await connections()).toEqual([]);
  });

  it('without a valid state, is 400 invalid_state whatever the code says', async () => {
    const missing = await landWith((q) => (q.delete('state'), q.append('code', 'another')));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe('invalid_state');
    const unknown = await landWith(
      (q) => (q.set('state', 'made-up'), q.set('code', 'c'.repeat(5000))),
    );
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.code).toBe('invalid_state');
  });

  it('a code of exactly 4096 characters is still exchanged', async () => {
    const res = await landWith((q) => q.set('code', 'c'.repeat(4096)));
    expect(res.status).toBe(302);
    // The stand-in provider does not know this code: refused at its token endpoint.
    expect(outcome(res)).toMatchObject({ status: 'error', error: 'invalid_grant' });
    expect(provider.state.tokenRequests).toBe(1);
  });
});

describe('OAuth refusals', () => {
  const outcome = (res: Response) =>
    Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams);

  it('redirects with the token endpoint error and connects nothing', async () => {
    provider.state.tokenErrorWith = 'invalid_grant';
    const res = await land(await startFlow());
    expect(res.status).toBe(302);
    expect(outcome(res)).toEqual({
      tab: 'connected',
      status: 'error',
      provider: 'facebook',
      error: 'invalid_grant',
    });
    expect(await connectedList()).toEqual([]);
  });

  it('redirects with the provider refusal (access_denied) without a token request', async () => {
    provider.state.denyWith = 'access_denied';
    const res = await land(await startFlow());
    expect(outcome(res)).toMatchObject({ status: 'error', error: 'access_denied' });
    expect(provider.state.tokenRequests).toBe(0);
    expect(await connections()).toEqual([]);
  });
});

describe('disconnect', () => {
  it('revokes at the provider, deletes the credentials, and can connect again', async () => {
    await land(await startFlow());
    const { status, json } = await h.call('DELETE', '/api/integrations/disconnect/facebook');
    expect(status).toBe(200);
    expect(json).toEqual({ status: 'disconnected', provider: 'facebook' });
    expect(provider.state.revoked).toEqual([
      { token: expect.stringMatching(/^at_/), via: 'bearer' },
    ]);
    expect(await connections()).toEqual([]);
    expect(await connectedList()).toEqual([]);

    const again = await h.call('DELETE', '/api/integrations/disconnect/facebook');
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('resource_not_found');

    await land(await startFlow());
    expect((await connectedList()).map((c: { integrationId: string }) => c.integrationId)).toEqual([
      'facebook',
    ]);
  });

  it('revokes the refresh token (RFC 7009) where the provider supports it (Canva)', async () => {
    await land(await startFlow('canva'));
    await h.call('DELETE', '/api/integrations/disconnect/canva');
    expect(provider.state.revoked).toEqual([{ token: expect.stringMatching(/^rt_/), via: 'form' }]);
  });

  it('is 404 for an integration that was never connected, or does not exist', async () => {
    for (const id of ['canva', 'nope', '%00']) {
      const { status } = await h.call('DELETE', `/api/integrations/disconnect/${id}`);
      expect(status).toBe(404);
    }
  });
});

describe('API-key connect', () => {
  it('connects at once (201), stores the key encrypted, and replaces it on reconnect', async () => {
    const first = await connect('unsplash', { apiKey: 'first-key-1234567890' });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({
      integrationId: 'unsplash',
      status: 'connected',
      connectedAt: expect.any(String),
      lastSyncAt: expect.any(String),
      // The key cannot be checked: the platform's name and the key's last four.
      meta: { accountName: 'Unsplash (…7890)', pages: [] },
    });
    const [before] = await connections();
    expect(before?.credentials).not.toContain('first-key');

    const second = await connect('unsplash', { apiKey: 'second-key-0987654321' });
    expect(second.status).toBe(201);
    const rows = await connections();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.credentials).not.toBe(before?.credentials);
    expect(rows[0]?.credentials).not.toContain('second-key');
    expect(await connectedList()).toEqual([second.json]);
  });

  it('needs the key: 400 missing_api_key', async () => {
    const { status, json } = await connect('unsplash', {});
    expect(status).toBe(400);
    expect(json.error.code).toBe('missing_api_key');
  });

  it('disconnects without a third-party call', async () => {
    await connect('filestack', { apiKey: 'filestack-key-123' });
    const { status } = await h.call('DELETE', '/api/integrations/disconnect/filestack');
    expect(status).toBe(200);
    expect(provider.state.revoked).toEqual([]);
  });
});

describe('connect refusals', () => {
  it('is 400 integration_unavailable for a coming_soon integration, before the body is looked at', async () => {
    for (const body of [{}, { redirectUrl: 'javascript:alert(1)', apiKey: 'x' }]) {
      const { status, json } = await connect('tiktok', body);
      expect(status).toBe(400);
      expect(json.error.code).toBe('integration_unavailable');
    }
    // Not parsed at all: malformed JSON, a reserved key, another content type (docs/integrations.md).
    for (const [raw, contentType] of [
      ['{bad', 'application/json'],
      ['{"__proto__":1}', 'application/json'],
      ['hello', 'text/plain'],
    ] as const) {
      const { status, json } = await h.call('POST', '/api/integrations/connect/tiktok', {
        raw,
        contentType,
      });
      expect(status, raw).toBe(400);
      expect(json.error.code, raw).toBe('integration_unavailable');
    }
    // After the access check, as every refusal: a key without `write` is still 403.
    const { secret } = await h.keyFor(h.main.adminId, ['read']);
    const narrow = await h.call('POST', '/api/integrations/connect/tiktok', {
      token: secret,
      raw: '{bad',
      contentType: 'application/json',
    });
    expect(narrow.status).toBe(403);
  });

  it('is for admins only: a user is 403 forbidden, even with the write scope', async () => {
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@acme.test', password: 'long-enough-1' },
    });
    const { secret } = await h.keyFor(created.json.id, ['read', 'write']);
    await connect('unsplash', { apiKey: 'admin-key-12345678' });
    for (const [method, path, body] of [
      ['POST', '/api/integrations/connect/unsplash', { apiKey: 'user-key-12345678' }],
      ['DELETE', '/api/integrations/disconnect/unsplash', undefined],
    ] as const) {
      const res = await h.call(method, path, { token: secret, body });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    expect(await connectedList(secret)).toHaveLength(1);
  });

  it('is 400 integration_not_configured naming the missing settings', async () => {
    const { status, json } = await connect('linkedin', { redirectUrl: APP });
    expect(status).toBe(400);
    expect(json.error.code).toBe('integration_not_configured');
    expect(json.error.message).toContain('CHORUS_INTEGRATION_LINKEDIN_CLIENT_ID');
    expect(json.error.details.missing).toEqual([
      'CHORUS_INTEGRATION_LINKEDIN_CLIENT_ID',
      'CHORUS_INTEGRATION_LINKEDIN_CLIENT_SECRET',
    ]);
  });

  it('is 404 for an unknown integration', async () => {
    const { status, json } = await connect('myspace', { apiKey: 'whatever-123' });
    expect(status).toBe(404);
    expect(json.error.code).toBe('resource_not_found');
  });

  it('needs the write scope', async () => {
    const { secret } = await h.keyFor(h.main.adminId, ['read']);
    const { status, json } = await connect('unsplash', { apiKey: 'key-12345678' }, secret);
    expect(status).toBe(403);
    expect(json.error.code).toBe('insufficient_scope');
  });
});

describe('tenancy', () => {
  it('keeps connections to their account', async () => {
    const other = await h.newAccount('Globex', 'admin@globex.test');
    await land(await startFlow());
    await connect('unsplash', { apiKey: 'acme-key-12345678' });

    expect(await connectedList(other.token)).toEqual([]);
    const foreign = await h.call('DELETE', '/api/integrations/disconnect/facebook', {
      token: other.token,
    });
    expect(foreign.status).toBe(404);

    // The other account connecting the same integration has its own connection.
    await connect('unsplash', { apiKey: 'globex-key-1234567' }, other.token);
    const rows = await h.db
      .select()
      .from(integrationConnections)
      .where(eq(integrationConnections.accountId, h.main.accountId));
    expect(rows.map((r) => r.integrationId).sort()).toEqual(['facebook', 'unsplash']);
    expect(
      (await connectedList(other.token)).map((c: { integrationId: string }) => c.integrationId),
    ).toEqual(['unsplash']);
  });
});
