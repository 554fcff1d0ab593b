import type { Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { startHostileServer, type HostileServer } from '@chorus/stand-ins';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts';
import { syncConnectionAnalytics } from '../src/analytics/sync';
import { findEntry, type OAuthEntry } from '../src/integrations/catalogue';
import { storeConnection } from '../src/integrations/connections';
import { instanceApp } from '../src/integrations/mastodon-app';
import { exchangeCode, fetchProfile, refreshGrant } from '../src/integrations/oauth-client';
import type { ConfiguredProvider } from '../src/integrations/settings';
import { classifyHttp, NetworkError, networkFetch } from '../src/publishing/http';
import { requestJson } from '../src/publishing/providers/common/json';
import { Graph, RetrySafe, tokenRequest } from '../src/publishing/providers/meta/graph';
import { ANSWER_LIMIT, ERROR_BODY_LIMIT } from '../src/shared/answer-body';
import { failure } from './publishing/harness';

/**
 * Every byte a network or a user's server sends back is hostile (docs/security.md, Outbound
 * requests): an answer is read up to a cap and no further, the connection closed there. A
 * server posing as the network floods 64 MiB; each call must hang up having taken a few MiB
 * (the cap, and what the kernel buffered on the way), never the whole body.
 */

const FLOOD = 64 * 1024 * 1024;
/** The cap and what loopback's socket buffers hold on both sides, with room to spare. */
const READ_AT_MOST = ANSWER_LIMIT + 24 * 1024 * 1024;

let server: HostileServer;
let database: Database;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  server = await startHostileServer();
  database = await createTestDatabase();
});
afterAll(async () => {
  await server?.close();
  await database?.close();
});
beforeEach(() => server.reset());

/** The one flood of the test, once its connection has closed: hung up early, a few MiB read. */
async function hungUpEarly() {
  expect(server.floods).toHaveLength(1);
  const [flood] = server.floods;
  await flood?.closed;
  expect(flood?.hungUp).toBe(true);
  expect(flood?.written).toBeLessThan(READ_AT_MOST);
}

describe("a network's answer is read up to its cap", () => {
  for (const guarded of [false, true]) {
    it(`refuses a success answer over the cap as an unknown outcome (${guarded ? "a user's server" : 'a configured API'})`, async () => {
      server.answer('/api/v1/accounts/verify_credentials', { flood: FLOOD, fields: { id: '7' } });
      const error = await failure(
        requestJson(`${server.url}/api/v1/accounts/verify_credentials`, { guarded }),
      );
      expect(error).toBeInstanceOf(NetworkError);
      const { details } = error as NetworkError;
      expect(details.sent).toBe(true);
      expect(details.status).toBeUndefined();
      expect(details.wire).toContain('answered 200 with more than 5 MiB: not read');
      // Acted on or not, the request's answer is unread: an unknown outcome, never a refusal.
      expect(classifyHttp(error).class).toBe('unknown_outcome');
      expect(classifyHttp(error).message).toBe(
        'The network answered more than Chorus reads (over 5 MiB).',
      );
      await hungUpEarly();
    });
  }

  it('reads an answer of exactly the cap, and refuses one byte more', async () => {
    server.answer('/exact', { flood: ANSWER_LIMIT, fields: { id: 'exact' } });
    const { data } = await requestJson(`${server.url}/exact`);
    expect((data as { id: string }).id).toBe('exact');
    server.answer('/over', { flood: ANSWER_LIMIT + 1, declare: false });
    expect(await failure(requestJson(`${server.url}/over`))).toBeInstanceOf(NetworkError);
  });

  it('refuses an answer declaring more than the cap without waiting for its body', async () => {
    server.answer('/declared', { flood: FLOOD, declare: true, stall: true });
    const started = Date.now();
    const error = await failure(requestJson(`${server.url}/declared`, { timeoutMs: 10_000 }));
    expect(classifyHttp(error).class).toBe('unknown_outcome');
    expect(Date.now() - started).toBeLessThan(5_000);
    await hungUpEarly();
  });

  it("keeps the start of an error's body, the rest unread", async () => {
    server.answer('/api/v1/statuses', { status: 500, flood: FLOOD, fields: { error: 'down' } });
    const error = await failure(networkFetch(`${server.url}/api/v1/statuses`, { method: 'POST' }));
    expect(error).toBeInstanceOf(NetworkError);
    const { status, body } = (error as NetworkError).details;
    expect(status).toBe(500);
    expect(typeof body).toBe('string');
    expect((body as string).startsWith('{"error":"down","pad":"xxx')).toBe(true);
    expect((body as string).length).toBe(ERROR_BODY_LIMIT);
    expect(classifyHttp(error).class).toBe('transient');
    await hungUpEarly();
  });

  it("Meta's Graph calls and token requests", async () => {
    server.answer('/v21.0/me/accounts', { flood: FLOOD });
    const graph = new Graph(`${server.url}/v21.0`, 'token');
    const read = await failure(graph.get('me/accounts', z.unknown()));
    expect(read).toBeInstanceOf(RetrySafe);
    expect((read as RetrySafe).cause).toBeInstanceOf(NetworkError);
    await hungUpEarly();

    server.reset();
    server.answer('/refresh_access_token', { flood: FLOOD, fields: { access_token: 't' } });
    const token = await failure(
      tokenRequest(new URL(`${server.url}/refresh_access_token`), undefined),
    );
    expect((token as RetrySafe).cause).toBeInstanceOf(NetworkError);
    await hungUpEarly();
  });

  describe('OAuth endpoints', () => {
    const dropbox = findEntry('dropbox') as OAuthEntry;
    const provider = (path: string): ConfiguredProvider => ({
      authorizeUrl: dropbox.urls.authorize,
      tokenUrl: `${server.url}${path}`,
      refreshUrl: `${server.url}${path}`,
      profileUrl: `${server.url}${path}`,
      revokeUrl: undefined,
      metricsUrl: undefined,
      clientId: 'our-client',
      clientSecret: 'our-secret',
    });

    it('a token answer over the cap is a failure that may work next time', async () => {
      server.answer('/token', { flood: FLOOD, fields: { access_token: 'a' } });
      const grant = { code: 'c', verifier: 'v', callbackUrl: 'https://app.test/cb' };
      expect(await exchangeCode(dropbox, provider('/token'), grant)).toEqual({
        ok: false,
        error: 'provider_unreachable',
        refused: false,
      });
      await hungUpEarly();
    });

    it("a refusal's body is read only for its start", async () => {
      server.answer('/token', { status: 400, flood: FLOOD, fields: { error: 'invalid_grant' } });
      const refused = await refreshGrant(dropbox, provider('/token'), 'r');
      expect(refused).toMatchObject({ ok: false, refused: false });
      await hungUpEarly();
    });

    it('a profile over the cap leaves the profile empty', async () => {
      server.answer('/profile', { flood: FLOOD, fields: { name: 'Big' } });
      expect(await fetchProfile(dropbox, provider('/profile'), 'token')).toEqual({
        accountName: 'Dropbox',
        pages: [],
      });
      await hungUpEarly();
    });
  });

  it("a Mastodon instance's answer to Chorus's app registration", async () => {
    server.answer('/api/v1/apps', { flood: FLOOD, fields: { client_id: 'id' } });
    const error = await failure(instanceApp(database.db, server.url, 'https://app.test/cb'));
    expect(error).toMatchObject({
      code: 'integration_unreachable',
      message: `The instance ${server.url} answered with more than 5 MiB.`,
    });
    await hungUpEarly();
  });

  it("the analytics sync's metrics answer", async () => {
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'Metrics',
      admin: { name: 'Ada', email: 'ada@metrics.test', password: 'correct horse battery' },
    });
    await storeConnection({
      db: database.db,
      accountId,
      userId: adminId,
      integrationId: 'facebook',
      credentials: { kind: 'oauth2', accessToken: 'token' },
      scopes: [],
      meta: { accountName: 'Facebook', pages: [] },
      now: new Date(),
    });
    server.answer('/metrics', { flood: FLOOD, fields: { data: '' } });
    const sync = syncConnectionAnalytics({
      db: database.db,
      accountId,
      integrationId: 'facebook',
      env: { CHORUS_INTEGRATION_FACEBOOK_METRICS_URL: `${server.url}/metrics` },
    });
    await expect(sync).rejects.toThrow('the metrics answer is too large');
    await hungUpEarly();
  });
});
