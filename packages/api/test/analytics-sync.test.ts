import { and, eq, events, integrationConnections, trackedEvents } from '@chorus/db';
import { connectionsToSync, syncConnectionAnalytics } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness';
import { operatorLog } from './operator-log';
import { createPost } from './posts-fixtures';
import { startStandInProvider, type StandInProvider } from './stand-in-provider';

let h: Harness;
let provider: StandInProvider;
const TODAY = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'b'.repeat(64);
  provider = await startStandInProvider({
    clientId: 'chorus-client',
    clientSecret: 'stand-in-secret',
    profile: { name: 'Acme Social' },
  });
  Object.assign(process.env, provider.env('CHORUS_INTEGRATION_FACEBOOK_'));
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await provider?.close();
});

/** Connects the account to the stand-in "facebook" through the real OAuth flow. */
async function connectFacebook(token?: string) {
  const started = await h.call('POST', '/api/integrations/connect/facebook', { body: {}, token });
  expect(started.status).toBe(200);
  const atProvider = await fetch(started.json.authUrl, { redirect: 'manual' });
  const back = atProvider.headers.get('location') ?? '';
  const landed = await h.handle(new Request(back));
  expect(landed.status).toBe(302);
  expect(landed.headers.get('location')).toContain('status=connected');
}

const stats = async (token?: string) =>
  (await h.call('GET', '/api/analytics/stats', { token })).json.data;

const sync = (accountId = h.main.accountId) =>
  syncConnectionAnalytics({ db: h.db, accountId, integrationId: 'facebook' });

describe('the integration analytics sync', () => {
  it('records a platform’s per-post figures as tracked events of the integration, once', async () => {
    await connectFacebook();
    const post = await createPost(h, { title: 'Synced' });
    const other = await h.newAccount('Other', 'admin@other-sync.test');
    const theirs = await createPost(h, { title: 'Not ours' }, other.token);
    provider.state.metrics.push(
      { postId: post.id, date: TODAY, metrics: { impression: 200, like: 10, reach: 5 } },
      { postId: theirs.id, date: TODAY, metrics: { impression: 999 } },
      { postId: post.id, date: 'not a date', metrics: { like: 1 } },
    );

    const first = await sync();
    expect(first).toEqual({ recorded: 2, updated: 0, skipped: 1 });
    expect(provider.state.metricsRequests.at(-1)?.to).toBe(TODAY);
    const after = await stats();
    expect(after.totals).toMatchObject({ impression: 200, like: 10 });
    expect(after.engagementRate).toBe(0.05);
    expect(after.byPlatform).toEqual([
      { integrationId: 'facebook', totals: expect.objectContaining({ impression: 200 }) },
    ]);
    const listed = await h.call('GET', '/api/analytics/events?integrationId=facebook');
    expect(listed.json.data).toHaveLength(2);
    expect(listed.json.data[0]).toMatchObject({
      contentId: post.id,
      properties: { source: 'sync' },
    });
    // The other account's post was not counted anywhere.
    expect((await stats(other.token)).totals.impression).toBe(0);

    // Run twice: counted once.
    expect(await sync()).toEqual({ recorded: 0, updated: 0, skipped: 1 });
    expect((await stats()).totals).toMatchObject({ impression: 200, like: 10 });

    // A revised figure moves the counts by the revision only.
    provider.state.metrics[0] = {
      postId: post.id,
      date: TODAY,
      metrics: { impression: 250, like: 10 },
    };
    expect(await sync()).toEqual({ recorded: 0, updated: 1, skipped: 1 });
    expect((await stats()).totals).toMatchObject({ impression: 250, like: 10 });
    const rows = await h.db
      .select()
      .from(trackedEvents)
      .where(
        and(eq(trackedEvents.accountId, h.main.accountId), eq(trackedEvents.type, 'impression')),
      );
    expect(rows).toHaveLength(1);
  });

  it('counts once when two syncs of a connection run at the same time', async () => {
    const { accountId, token } = await h.newAccount('Twice', 'admin@twice-sync.test');
    await connectFacebook(token);
    const post = await createPost(h, { title: 'Race' }, token);
    provider.state.metrics.length = 0;
    provider.state.metrics.push({ postId: post.id, date: TODAY, metrics: { view: 42 } });
    await Promise.all([sync(accountId), sync(accountId), sync(accountId)]);
    expect((await stats(token)).totals.view).toBe(42);
  });

  it('lists only connections of configured OAuth integrations, and skips the rest', async () => {
    const listed = await connectionsToSync(h.db);
    expect(listed).toContainEqual({ accountId: h.main.accountId, integrationId: 'facebook' });
    expect(listed.every((c) => c.integrationId === 'facebook')).toBe(true);
    expect(
      await syncConnectionAnalytics({
        db: h.db,
        accountId: h.main.accountId,
        integrationId: 'canva',
      }),
    ).toEqual({
      skipped: 'not_configured',
    });
    const { accountId } = await h.newAccount('Unconnected', 'admin@unconnected.test');
    expect(await sync(accountId)).toEqual({ skipped: 'not_connected' });
  });

  it('fails (for the job to retry) when the provider refuses, recording nothing', async () => {
    const { accountId, token } = await h.newAccount('Refused', 'admin@refused-sync.test');
    await connectFacebook(token);
    const post = await createPost(h, { title: 'Refused' }, token);
    provider.state.metrics.length = 0;
    provider.state.metrics.push({ postId: post.id, date: TODAY, metrics: { view: 3 } });
    provider.state.metricsFailWith = 503;
    await expect(sync(accountId)).rejects.toThrow('answered 503');
    expect((await stats(token)).totals.view).toBe(0);
    provider.state.metricsFailWith = undefined;
    expect(await sync(accountId)).toEqual({ recorded: 1, updated: 0, skipped: 0 });
  });

  it('marks the connection needs_reconnect when the provider refuses its token, and syncs it no more', async () => {
    const { accountId, token } = await h.newAccount('Revoked', 'admin@revoked-sync.test');
    await connectFacebook(token);
    const connection = and(
      eq(integrationConnections.accountId, accountId),
      eq(integrationConnections.integrationId, 'facebook'),
    );
    // A token past its expiry refused: the refresh job's to renew; retried, not marked.
    await h.db
      .update(integrationConnections)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(connection);
    provider.state.metricsFailWith = 401;
    await expect(sync(accountId)).rejects.toThrow('answered 401');
    const [expired] = await h.db.select().from(integrationConnections).where(connection);
    expect(expired?.status).toBe('connected');

    await h.db.update(integrationConnections).set({ tokenExpiresAt: null }).where(connection);
    const warned = operatorLog();
    try {
      expect(await sync(accountId)).toEqual({ skipped: 'needs_reconnect' });
    } finally {
      vi.restoreAllMocks();
    }
    provider.state.metricsFailWith = undefined;
    const [marked] = await h.db.select().from(integrationConnections).where(connection);
    expect(marked?.status).toBe('needs_reconnect');
    expect(warned.filter((line) => line.msg === 'analytics not synced')).toEqual([
      expect.objectContaining({
        msg: 'analytics not synced',
        accountId,
        integrationId: 'facebook',
        class: 'revoked',
      }),
    ]);
    const recorded = await h.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));
    expect(recorded).toHaveLength(1);
    expect(await connectionsToSync(h.db)).not.toContainEqual({
      accountId,
      integrationId: 'facebook',
    });
  });
});
