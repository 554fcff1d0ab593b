import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  and,
  asc,
  channels,
  eq,
  postActivity,
  sql,
  trackedEvents,
  type Database,
} from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, syncPublishedFigures, wakePublishing } from '@chorus/services';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { localDiskStorage } from '@chorus/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dispatchPublishingJob,
  publishDuePostsJob,
  publishTargetJobs,
  startWorker,
  type Worker,
} from '../src';
import {
  eventTypesOf,
  insertPost,
  postStatus,
  seedChannel,
  storeMedia,
  targetsOf,
} from './publishing-fixtures';
import { until } from './until';

/**
 * The publishing engine end to end on a real worker (pg-boss on the test database): the
 * scheduler makes targets due, one job per target publishes it to a loopback stand-in, the
 * outcome settles the post.
 */

let database: Database & { url: string };
let worker: Worker;
let mastodon: MastodonStandIn;
let accountId: string;
let channelId: string;
let storageDir: string;
const storage = () => localDiskStorage(storageDir);
const timing = { sweepIntervalMs: 200, concurrency: 8 };

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestServerDatabase();
  storageDir = await mkdtemp(join(tmpdir(), 'chorus-engine-'));
  mastodon = await startMastodonStandIn();
  ({ accountId } = await createAccount(database.db, {
    name: 'Engine',
    admin: { name: 'Ada', email: 'ada@engine.test', password: 'correct horse battery' },
  }));
  channelId = await seedChannel(database.db, {
    accountId,
    integrationId: 'mastodon',
    kind: 'api_key',
    externalId: `${mastodon.accountId}@mastodon.test`,
    handle: '@alice@mastodon.test',
    credentials: { accessToken: mastodon.token, extra: { instanceUrl: mastodon.url } },
  });
  worker = await startWorker({
    databaseUrl: database.url,
    db: database.db,
    media: { storage: storage() },
    definitions: [
      publishDuePostsJob({ intervalMs: 200, pollingIntervalSeconds: 0.5 }),
      ...publishTargetJobs(timing),
      dispatchPublishingJob(timing),
    ],
  });
});

afterAll(async () => {
  await worker?.stop();
  await mastodon?.close();
  await database?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

/** A post's activity, oldest first, as (action, actor, target) and the details. */
const activityOf = (postId: string) =>
  database.db
    .select({
      action: postActivity.action,
      actorId: postActivity.actorId,
      targetId: postActivity.targetId,
      details: postActivity.details,
    })
    .from(postActivity)
    .where(eq(postActivity.postId, postId))
    .orderBy(asc(postActivity.seq));

describe('the publishing engine', () => {
  it('publishes a scheduled post with an image to its channel at its time, once', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff));
    const mediaId = await storeMedia(database.db, storage(), { accountId, bytes });
    const { postId, targetIds } = await insertPost(database.db, {
      accountId,
      content: 'The post itself',
      mediaIds: [mediaId],
      targets: [{ channelId, content: 'Hello from the engine' }],
      scheduledAt: new Date(Date.now() + 500),
    });
    await until(async () => (await postStatus(database.db, postId)) === 'published', 'published');

    const sent = mastodon.published().filter((status) => status.text === 'Hello from the engine');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.media.map((m) => m.sha256)).toEqual([
      createHash('sha256').update(bytes).digest('hex'),
    ]);
    const [target] = await targetsOf(database.db, postId);
    expect(target).toMatchObject({
      id: targetIds[0],
      status: 'published',
      externalId: sent[0]?.id,
      attempts: 1,
      error: null,
    });
    expect(target?.url).toMatch(/^http/);
    expect(target?.publishedAt).toBeInstanceOf(Date);
    expect(target?.firstAttemptAt).toBeInstanceOf(Date);
    expect(await eventTypesOf(database.db, postId)).toEqual(['post.publishing', 'post.published']);
    // The scheduler started it and the engine published the target: Chorus itself, no member.
    expect(await activityOf(postId)).toEqual([
      { action: 'publishing', actorId: null, targetId: null, details: {} },
      { action: 'published', actorId: null, targetId: target?.id, details: { url: target?.url } },
    ]);
  });

  it('publishes a post made due by publish-now once woken', async () => {
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Right now',
      targets: [{ channelId }],
      publishNow: true,
    });
    wakePublishing();
    await until(async () => (await postStatus(database.db, postId)) === 'published', 'published');
    expect(mastodon.published().filter((status) => status.text === 'Right now')).toHaveLength(1);
  });

  it('fails a target whose channel is gone with channel_unavailable, and the post with it', async () => {
    const goneId = await seedChannel(database.db, {
      accountId,
      integrationId: 'mastodon',
      credentials: { accessToken: mastodon.token, extra: { instanceUrl: mastodon.url } },
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Nowhere to go',
      targets: [{ channelId: goneId }, { channelId }],
      scheduledAt: new Date(),
    });
    await database.db.delete(channels).where(eq(channels.id, goneId));
    await until(async () => (await postStatus(database.db, postId)) === 'failed', 'failed');
    const [gone, kept] = await targetsOf(database.db, postId);
    expect(gone).toMatchObject({
      status: 'failed',
      error: { code: 'channel_unavailable', retryable: false },
    });
    expect(kept?.status).toBe('published');
    expect(await eventTypesOf(database.db, postId)).toEqual(['post.publishing', 'post.failed']);
    const outcomes = (await activityOf(postId)).filter((entry) => entry.targetId !== null);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'failed',
          targetId: gone?.id,
          details: { error: expect.objectContaining({ code: 'channel_unavailable' }) },
        }),
        expect.objectContaining({ action: 'published', targetId: kept?.id }),
      ]),
    );
    expect(outcomes).toHaveLength(2);
  });

  it("records published targets' figures as tracked events, counted once however often it runs", async () => {
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Counted',
      targets: [{ channelId }],
      publishNow: true,
    });
    wakePublishing();
    await until(async () => (await postStatus(database.db, postId)) === 'published', 'published');
    const [target] = await targetsOf(database.db, postId);
    const figures = async () => {
      const rows = await database.db
        .select({ type: trackedEvents.type, n: sql<number>`sum(${trackedEvents.count})::int` })
        .from(trackedEvents)
        .where(
          and(eq(trackedEvents.contentId, postId), eq(trackedEvents.integrationId, 'mastodon')),
        )
        .groupBy(trackedEvents.type);
      return Object.fromEntries(rows.map((row) => [row.type, row.n]));
    };
    mastodon.engage(target?.externalId ?? '', { favourites: 3, reblogs: 1, replies: 2 });
    await syncPublishedFigures({ db: database.db });
    await syncPublishedFigures({ db: database.db });
    expect(await figures()).toEqual({ like: 3, share: 1, comment: 2 });
    mastodon.engage(target?.externalId ?? '', { favourites: 5, reblogs: 1, replies: 2 });
    await syncPublishedFigures({ db: database.db });
    expect(await figures()).toEqual({ like: 5, share: 1, comment: 2 });
    // The next day adds only what that day brought.
    const tomorrow = new Date(Date.now() + 86_400_000);
    mastodon.engage(target?.externalId ?? '', { favourites: 7, reblogs: 1, replies: 2 });
    await syncPublishedFigures({ db: database.db, now: tomorrow });
    await syncPublishedFigures({ db: database.db, now: tomorrow });
    expect(await figures()).toEqual({ like: 7, share: 1, comment: 2 });
  });
});
