import { count, eq, inArray, openDatabase, posts, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount } from '@chorus/services';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dispatchPublishingJob,
  publishDuePostsJob,
  publishTargetJobs,
  startWorker,
  type Worker,
} from '../src';
import { insertPost, seedChannel, targetsOf } from './publishing-fixtures';
import { until } from './until';

/** Two workers on one database, 200 targets due at the same moment: each sent exactly once. */

let database: Database & { url: string };
let second: Database;
let mastodon: MastodonStandIn;
const workers: Worker[] = [];
const timing = { sweepIntervalMs: 100, concurrency: 16 };

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestServerDatabase();
  second = await openDatabase({ url: database.url, max: 5 });
  mastodon = await startMastodonStandIn({ rateLimit: { limit: 100_000, windowMs: 60_000 } });
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await second?.close();
  await mastodon?.close();
  await database?.close();
});

describe('two workers', () => {
  it('send each of 200 targets due at once exactly once', { timeout: 120_000 }, async () => {
    const { accountId } = await createAccount(database.db, {
      name: 'Two',
      admin: { name: 'Ada', email: 'ada@two.test', password: 'correct horse battery' },
    });
    const channelIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const user = mastodon.addAccount({ username: `user${i}` });
      channelIds.push(
        await seedChannel(database.db, {
          accountId,
          integrationId: 'mastodon',
          kind: 'api_key',
          // One connection, four accounts on it: each channel holds its own token.
          onChannel: true,
          externalId: user.accountId,
          credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
        }),
      );
    }
    const at = new Date(Date.now() + 3000);
    const postIds: string[] = [];
    for (let p = 0; p < 50; p++) {
      const { postId } = await insertPost(database.db, {
        accountId,
        content: `Post ${p}`,
        targets: channelIds.map((channelId, c) => ({ channelId, content: `Post ${p} to ${c}` })),
        scheduledAt: at,
      });
      postIds.push(postId);
    }
    for (const db of [database.db, second.db]) {
      workers.push(
        await startWorker({
          databaseUrl: database.url,
          db,
          definitions: [
            publishDuePostsJob({ intervalMs: 100, pollingIntervalSeconds: 0.5 }),
            ...publishTargetJobs(timing),
            dispatchPublishingJob(timing),
          ],
        }),
      );
    }
    await until(
      async () => {
        const [row] = await database.db
          .select({ n: count() })
          .from(posts)
          .where(inArray(posts.status, ['published', 'failed']));
        return row?.n === 50;
      },
      'every post to settle',
      100_000,
    );

    const [published] = await database.db
      .select({ n: count() })
      .from(posts)
      .where(eq(posts.status, 'published'));
    expect(published?.n).toBe(50);
    const texts = mastodon.published().map((status) => status.text);
    expect(texts).toHaveLength(200);
    expect(new Set(texts).size).toBe(200);
    const requests = mastodon.received.filter(
      (r) => r.method === 'POST' && r.url === '/api/v1/statuses',
    );
    expect(requests).toHaveLength(200);
    for (const postId of postIds) {
      for (const target of await targetsOf(database.db, postId)) {
        expect(target).toMatchObject({ status: 'published', attempts: 1 });
      }
    }
  });
});
