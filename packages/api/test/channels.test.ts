import { createServer } from 'node:net';
import { channels, eq, integrationConnections, sql } from '@chorus/db';
import {
  startMastodonStandIn,
  startXStandIn,
  type MastodonStandIn,
  type XStandIn,
} from '@chorus/stand-ins';
import { NETWORK_LIMITS } from '@chorus/validators';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { testRateLimiter } from './rate-limiter';

/**
 * Channels (docs/publishing.md): discovered when a network is connected (an API key checked by the
 * network itself, or after an OAuth grant), kept with stable ids on reconnect, removed on
 * disconnect, listed with their limits and their connection's status.
 */

let h: Harness;
let mastodon: MastodonStandIn;
let x: XStandIn;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'b'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  mastodon = await startMastodonStandIn({ maxCharacters: 1000 });
  x = await startXStandIn();
  Object.assign(process.env, {
    CHORUS_INTEGRATION_X_CLIENT_ID: x.client.clientId,
    CHORUS_INTEGRATION_X_CLIENT_SECRET: x.client.clientSecret,
    CHORUS_INTEGRATION_X_AUTHORIZE_URL: `${x.url}/i/oauth2/authorize`,
    CHORUS_INTEGRATION_X_TOKEN_URL: `${x.url}/2/oauth2/token`,
    CHORUS_INTEGRATION_X_PROFILE_URL: `${x.url}/2/users/me`,
    CHORUS_INTEGRATION_X_REVOKE_URL: `${x.url}/2/oauth2/revoke`,
    CHORUS_INTEGRATION_X_API_URL: x.url,
  });
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await mastodon?.close();
  await x?.close();
});

beforeEach(async () => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  await h.db.delete(integrationConnections);
});

const connectMastodon = (body: Record<string, unknown> = {}, token?: string) =>
  h.call('POST', '/api/integrations/connect/mastodon', {
    body: { apiKey: mastodon.token, serviceUrl: mastodon.url, ...body },
    token,
  });

const listChannels = async (token?: string, query = '') =>
  h.call('GET', `/api/content/channels${query}`, { token });

/** A loopback port nothing listens on: a connection there is refused. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('connecting Mastodon with an access token', () => {
  it('discovers the account as a channel, with the instance’s own limits', async () => {
    const connected = await connectMastodon();
    expect(connected.status).toBe(201);
    expect(connected.json).toMatchObject({
      integrationId: 'mastodon',
      status: 'connected',
      meta: { accountName: expect.stringMatching(/^@[^@]+@/), pages: [] },
    });
    const { status, json } = await listChannels();
    expect(status).toBe(200);
    expect(json.meta.pagination).toMatchObject({ total: 1, count: 1 });
    expect(json.data).toEqual([
      {
        id: expect.stringMatching(/^chn_[0-9A-Z]{26}$/),
        integrationId: 'mastodon',
        name: expect.any(String),
        handle: connected.json.meta.accountName,
        avatarUrl: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
        kind: 'account',
        limits: { ...NETWORK_LIMITS.mastodon, maxLength: 1000, media: expect.any(Array) },
        connectionStatus: 'connected',
        createdAt: expect.stringMatching(/Z$/),
      },
    ]);
  });

  it('keeps the channel’s id and the connection row when connecting again', async () => {
    await connectMastodon();
    const [before] = (await listChannels()).json.data;
    const [rowBefore] = await h.db.select().from(integrationConnections);
    await h.db
      .update(integrationConnections)
      .set({ status: 'needs_reconnect' })
      .where(eq(integrationConnections.integrationId, 'mastodon'));
    expect((await listChannels()).json.data[0].connectionStatus).toBe('needs_reconnect');
    const connectedList = async () =>
      (await h.call('GET', '/api/integrations/connected')).json.data.map(
        (c: { integrationId: string; status: string }) => [c.integrationId, c.status],
      );
    // The connection itself says so too, where an API client looks for its integrations.
    expect(await connectedList()).toEqual([['mastodon', 'needs_reconnect']]);

    expect((await connectMastodon()).status).toBe(201);
    expect(await connectedList()).toEqual([['mastodon', 'connected']]);
    const after = (await listChannels()).json.data;
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(before.id);
    expect(after[0].createdAt).toBe(before.createdAt);
    // Reconnecting is how a revoked grant recovers.
    expect(after[0].connectionStatus).toBe('connected');
    const [rowAfter] = await h.db.select().from(integrationConnections);
    expect(rowAfter?.connectedAt.getTime()).toBeGreaterThanOrEqual(
      rowBefore?.connectedAt.getTime() ?? Infinity,
    );
  });

  it('refuses a token the instance refuses, naming apiKey, and stores nothing', async () => {
    const { status, json } = await connectMastodon({ apiKey: 'not-a-real-token' });
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.details.issues).toEqual([
      { path: 'apiKey', message: expect.stringContaining('Mastodon refused') },
    ]);
    expect(await h.db.select().from(integrationConnections)).toEqual([]);
    expect(await h.db.select().from(channels)).toEqual([]);
  });

  it('refuses a private or loopback serviceUrl unless private targets are allowed', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    for (const serviceUrl of [mastodon.url, 'https://10.1.2.3', 'https://[::1]:8443']) {
      const { status, json } = await connectMastodon({ serviceUrl });
      expect(status, serviceUrl).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues[0].path).toBe('serviceUrl');
    }
    expect(mastodon.published()).toEqual([]);
    expect(await h.db.select().from(integrationConnections)).toEqual([]);
  });

  it('answers 502 integration_unreachable when the server cannot be reached', async () => {
    const { status, json } = await connectMastodon({ serviceUrl: await closedPort() });
    expect(status).toBe(502);
    expect(json.error.code).toBe('integration_unreachable');
    expect(await h.db.select().from(channels)).toEqual([]);
  });

  it('keeps the token and the instance encrypted at rest', async () => {
    await connectMastodon();
    const raw = JSON.stringify([
      await h.db.execute(sql`select * from integration_connections`),
      await h.db.execute(sql`select * from channels`),
    ]);
    expect(raw).not.toContain(mastodon.token);
  });
});

describe('connecting Mastodon by signing in on the instance', () => {
  const signIn = () =>
    h.call('POST', '/api/integrations/connect/mastodon', { body: { serviceUrl: mastodon.url } });

  /** The browser's trip: the instance's authorize page, then our callback. */
  async function grant(authUrl: string) {
    const atInstance = await fetch(authUrl, { redirect: 'manual' });
    const landed = await h.handle(new Request(atInstance.headers.get('location') ?? ''));
    expect(landed.status).toBe(302);
    return new URL(landed.headers.get('location') ?? '');
  }

  it('registers Chorus on the instance, sends the browser there, and connects after the grant', async () => {
    const started = await signIn();
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ status: 'pending', provider: 'mastodon' });
    const authUrl = new URL(started.json.authUrl);
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${mastodon.url}/oauth/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('scope')).toBe(
      'read:accounts read:statuses write:media write:statuses',
    );
    const back = await grant(started.json.authUrl);
    expect(back.searchParams.get('status')).toBe('connected');
    const { json } = await listChannels();
    expect(json.data).toEqual([
      expect.objectContaining({
        integrationId: 'mastodon',
        handle: '@alice@mastodon.test',
        connectionStatus: 'connected',
      }),
    ]);
    // The token is kept sealed with the instance, where the engine reads it.
    const raw = JSON.stringify(await h.db.execute(sql`select * from integration_connections`));
    expect(raw).toContain('mastodon');
    expect(raw).not.toContain(mastodon.url);
  });

  it('registers once per instance: the next sign-in uses the same app', async () => {
    const first = new URL((await signIn()).json.authUrl);
    const second = new URL((await signIn()).json.authUrl);
    expect(second.searchParams.get('client_id')).toBe(first.searchParams.get('client_id'));
    expect(second.searchParams.get('state')).not.toBe(first.searchParams.get('state'));
  });

  it('returns the browser with the instance’s refusal and stores nothing', async () => {
    const started = new URL((await signIn()).json.authUrl);
    const callback = new URL(
      `/api/integrations/callback/mastodon?state=${started.searchParams.get('state')}&error=access_denied`,
      'http://localhost',
    );
    const landed = await h.handle(new Request(callback));
    const back = new URL(landed.headers.get('location') ?? '');
    expect(back.searchParams.get('status')).toBe('error');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await listChannels()).json.data).toEqual([]);
  });

  it('revokes the token at the instance on disconnect, with the app it was issued to', async () => {
    const known = new Set(mastodon.grants().map((g) => g.token));
    await grant((await signIn()).json.authUrl);
    const issued = mastodon.grants().filter((g) => !known.has(g.token));
    expect(issued).toEqual([expect.objectContaining({ revoked: false })]);
    const gone = await h.call('DELETE', '/api/integrations/disconnect/mastodon');
    expect(gone.status).toBe(200);
    const token = issued[0]?.token ?? '';
    expect(mastodon.grants().find((g) => g.token === token)?.revoked).toBe(true);
    const check = await fetch(`${mastodon.url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(check.status).toBe(401);
  });

  it('leaves a pasted token alone on disconnect: it is the user’s own', async () => {
    expect((await connectMastodon()).status).toBe(201);
    expect((await h.call('DELETE', '/api/integrations/disconnect/mastodon')).status).toBe(200);
    expect(mastodon.grants().find((g) => g.token === mastodon.token)?.revoked).toBe(false);
  });

  it('needs the instance, naming serviceUrl, and refuses a private one unless allowed', async () => {
    const none = await h.call('POST', '/api/integrations/connect/mastodon', { body: {} });
    expect(none.status).toBe(400);
    expect(none.json.error.details.issues).toEqual([
      { path: 'serviceUrl', message: expect.stringContaining('instance') },
    ]);
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    const loopback = await signIn();
    expect(loopback.status).toBe(400);
    expect(loopback.json.error.details.issues).toEqual([
      { path: 'serviceUrl', message: expect.any(String) },
    ]);
  });

  it('answers 502 integration_unreachable when the instance cannot be reached', async () => {
    const { status, json } = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { serviceUrl: await closedPort() },
    });
    expect(status).toBe(502);
    expect(json.error.code).toBe('integration_unreachable');
  });
});

describe('connecting Bluesky', () => {
  it('needs the handle the app password belongs to', async () => {
    const { status, json } = await h.call('POST', '/api/integrations/connect/bluesky', {
      body: { apiKey: 'abcd-efgh-ijkl-mnop' },
    });
    expect(status).toBe(400);
    expect(json.error.details.issues[0].path).toBe('handle');
  });

  it('refuses a loopback PDS unless private targets are allowed', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    const { status, json } = await h.call('POST', '/api/integrations/connect/bluesky', {
      body: {
        handle: 'alice.test',
        apiKey: 'abcd-efgh-ijkl-mnop',
        serviceUrl: 'http://127.0.0.1:2583',
      },
    });
    expect(status).toBe(400);
    expect(json.error.details.issues[0].path).toBe('serviceUrl');
  });
});

describe('connecting X with OAuth', () => {
  it('discovers the account after the grant', async () => {
    const started = await h.call('POST', '/api/integrations/connect/x', { body: {} });
    expect(started.status).toBe(200);
    const atProvider = await fetch(started.json.authUrl, { redirect: 'manual' });
    const callback = atProvider.headers.get('location') ?? '';
    expect(callback).toMatch(/^http/);
    const landed = await h.handle(new Request(callback));
    expect(landed.status).toBe(302);
    const back = new URL(landed.headers.get('location') ?? '');
    expect(back.searchParams.get('status')).toBe('connected');
    const { json } = await listChannels();
    expect(json.data).toEqual([
      expect.objectContaining({
        integrationId: 'x',
        handle: `@${x.username}`,
        kind: 'account',
        limits: NETWORK_LIMITS.x,
        connectionStatus: 'connected',
      }),
    ]);
  });
});

describe('GET /api/content/channels', () => {
  it('filters by network and pages like every list', async () => {
    await connectMastodon();
    expect((await listChannels(undefined, '?integrationId=x')).json.data).toEqual([]);
    expect((await listChannels(undefined, '?integrationId=mastodon')).json.data).toHaveLength(1);
    expect((await listChannels(undefined, '?integrationId=canva')).status).toBe(400);
    expect((await listChannels(undefined, '?limit=0')).status).toBe(400);
    // 25 a page by default, as every list but the users list (the spec's Limits).
    expect((await listChannels(undefined, '?page=99')).json.meta.pagination).toMatchObject({
      perPage: 25,
      currentPage: 99,
    });
  });

  it('removes the channels with the connection', async () => {
    await connectMastodon();
    const gone = await h.call('DELETE', '/api/integrations/disconnect/mastodon');
    expect(gone.status).toBe(200);
    expect((await listChannels()).json.data).toEqual([]);
    expect(await h.db.select().from(channels)).toEqual([]);
  });

  it('never shows another account’s channels', async () => {
    await connectMastodon();
    const other = await h.newAccount('Other', 'other@channels.test');
    const { json } = await listChannels(other.token);
    expect(json.data).toEqual([]);
    expect(json.meta.pagination.total).toBe(0);
  });

  it('needs content:read; every user of the account may list', async () => {
    await connectMastodon();
    const reader = (await h.keyFor(h.main.adminId, ['read'])).secret;
    const refused = await listChannels(reader);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect(refused.json.error.details.requiredScopes).toEqual(['content:read']);
    const member = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@channels.test', password: 'a-long-password' },
    });
    const memberKey = (await h.keyFor(member.json.id, ['content:read'])).secret;
    const listed = await listChannels(memberKey);
    expect(listed.status).toBe(200);
    expect(listed.json.data).toHaveLength(1);
    // Connecting stays an admin's (docs/security.md), even for a member with every scope.
    const allScopes = (await h.keyFor(member.json.id)).secret;
    expect((await connectMastodon({}, allScopes)).status).toBe(403);
  });

  it('answers the same on the tRPC door', async () => {
    await connectMastodon();
    const trpc = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
    });
    const res = await trpc(
      new Request(`http://localhost/api/trpc/channels.list?input=${encodeURIComponent('{}')}`, {
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { data: { data: { integrationId: string }[] } } };
    expect(body.result.data.data.map((c) => c.integrationId)).toEqual(['mastodon']);
  });
});
