import { and, eq, events, postTargets, trackedEvents, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, syncPublishedFigures } from '@chorus/services';
import { mastodonFaults, startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionRow, insertPost, seedChannel } from './publishing-fixtures';

/**
 * The published targets' figures when a network refuses to give them (docs/publishing.md,
 * Analytics): the channel is skipped until the next run, the worker's log says why, and a
 * revoked grant marks the connection `needs_reconnect` as a publish does.
 */

let database: Database;
let mastodon: MastodonStandIn;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestDatabase();
  mastodon = await startMastodonStandIn();
});
afterAll(async () => {
  await mastodon?.close();
  await database?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  mastodon.faults.clear();
});

/** An account whose Mastodon channel has one published target: a status of its own. */
async function publishedOnMastodon(name: string) {
  const { accountId } = await createAccount(database.db, {
    name,
    admin: { name: 'Ada', email: `ada@${name}.test`, password: 'correct horse battery' },
  });
  const user = mastodon.addAccount({ username: name });
  const channelId = await seedChannel(database.db, {
    accountId,
    integrationId: 'mastodon',
    kind: 'api_key',
    externalId: user.accountId,
    credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
  });
  const res = await fetch(`${mastodon.url}/api/v1/statuses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: `Hello from ${name}` }),
  });
  const status = (await res.json()) as { id: string };
  const { postId, targetIds } = await insertPost(database.db, {
    accountId,
    content: `Hello from ${name}`,
    targets: [{ channelId }],
    publishNow: true,
  });
  await database.db
    .update(postTargets)
    .set({ status: 'published', externalId: status.id, publishedAt: new Date() })
    .where(eq(postTargets.id, targetIds[0] ?? ''));
  mastodon.engage(status.id, { favourites: 2 });
  return { accountId, channelId, postId, token: user.token };
}

/** The worker's JSON lines on stderr from now on. */
function operatorLog() {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    const text = String(chunk);
    if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
    return true;
  });
  return lines;
}

const likesOf = async (postId: string) => {
  const rows = await database.db
    .select({ count: trackedEvents.count })
    .from(trackedEvents)
    .where(and(eq(trackedEvents.contentId, postId), eq(trackedEvents.type, 'like')));
  return rows.reduce((sum, row) => sum + row.count, 0);
};

const reconnectEvents = (accountId: string) =>
  database.db
    .select({ payload: events.payload })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));

describe("the published targets' figures, refused by the network", () => {
  it('a revoked grant: logged, the connection needs reconnecting with its event, others read', async () => {
    const revoked = await publishedOnMastodon('figrevoked');
    const fine = await publishedOnMastodon('figfine');
    mastodon.revoke(revoked.token);
    const log = operatorLog();
    await syncPublishedFigures({ db: database.db });
    vi.restoreAllMocks();

    const mine = log.filter((line) => line.accountId === revoked.accountId);
    expect(mine).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'published figures not read',
        integrationId: 'mastodon',
        channelId: revoked.channelId,
        class: 'revoked',
        message: 'The access token was revoked',
        detail: expect.stringContaining('answered 401'),
      }),
    ]);
    expect(JSON.stringify(log)).not.toContain(revoked.token);
    expect((await connectionRow(database.db, revoked.accountId, 'mastodon'))?.status).toBe(
      'needs_reconnect',
    );
    const marked = await reconnectEvents(revoked.accountId);
    expect(marked).toHaveLength(1);
    expect(marked[0]?.payload.data.object).toMatchObject({
      integrationId: 'mastodon',
      status: 'needs_reconnect',
    });
    // The other account's channel was read in the same run.
    expect(await likesOf(fine.postId)).toBe(2);
    expect(log.filter((line) => line.accountId === fine.accountId)).toEqual([]);

    // The next run reads no more of a connection that needs reconnecting: no second event.
    await syncPublishedFigures({ db: database.db });
    expect(await reconnectEvents(revoked.accountId)).toHaveLength(1);
  });

  it('any other refusal (a 422): logged, the connection left as it is', async () => {
    const refused = await publishedOnMastodon('figrejected');
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed'), {
      method: 'GET',
      path: '/api/v1/statuses',
      times: 1000,
    });
    const log = operatorLog();
    await syncPublishedFigures({ db: database.db });
    vi.restoreAllMocks();

    expect(log.filter((line) => line.accountId === refused.accountId)).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'published figures not read',
        channelId: refused.channelId,
        class: 'rejected',
        message: 'Validation failed',
        detail: expect.stringContaining('answered 422'),
      }),
    ]);
    expect((await connectionRow(database.db, refused.accountId, 'mastodon'))?.status).toBe(
      'connected',
    );
    expect(await reconnectEvents(refused.accountId)).toHaveLength(0);
    expect(await likesOf(refused.postId)).toBe(0);
  });
});
