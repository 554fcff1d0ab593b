import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRateLimiter } from '@chorus/api';
import { createRestHandler } from '@chorus/api/rest';
import { asc, eq, events, posts, sql, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey } from '@chorus/services';
import {
  mastodonFaults,
  startMastodonStandIn,
  startXStandIn,
  type MastodonStandIn,
  type XStandIn,
} from '@chorus/stand-ins';
import { localDiskStorage, type StorageDriver } from '@chorus/storage';
import { SCOPES } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dispatchPublishingJob,
  publishDuePostsJob,
  publishTargetJobs,
  startWorker,
  type Worker,
} from '../src';
import { postStatus, seedChannel, storeMedia, targetsOf } from './publishing-fixtures';
import { until } from './until';

/**
 * A post changed or published again after a round that went wrong (docs/publishing.md, Targets
 * and Unconfirmed targets), through the REST door, a real worker and the network stand-ins:
 * what the networks receive, not only what Chorus answers.
 */

let database: Database & { url: string };
let worker: Worker;
let mastodon: MastodonStandIn;
let x: XStandIn;
let storage: StorageDriver;
let storageDir: string;
let door: (req: Request) => Promise<Response>;
let token: string;
let accountId: string;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestServerDatabase();
  storageDir = await mkdtemp(join(tmpdir(), 'chorus-changes-'));
  storage = localDiskStorage(storageDir);
  mastodon = await startMastodonStandIn({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  x = await startXStandIn();
  process.env.CHORUS_INTEGRATION_X_API_URL = x.url;
  door = createRestHandler({
    getDatabase: async () => database,
    rateLimiter: defaultRateLimiter(),
    storage,
  });
  const created = await createAccount(database.db, {
    name: 'Changes',
    admin: { name: 'Ada', email: 'ada@changes.test', password: 'correct horse battery' },
  });
  accountId = created.accountId;
  token = (
    await createApiKey({
      db: database.db,
      userId: created.adminId,
      name: 'test',
      scopes: [...SCOPES],
      environment: 'test',
    })
  ).secret;
  const timing = { sweepIntervalMs: 100, concurrency: 4 };
  worker = await startWorker({
    databaseUrl: database.url,
    db: database.db,
    media: { storage },
    definitions: [
      publishDuePostsJob({ intervalMs: 100, pollingIntervalSeconds: 0.5 }),
      ...publishTargetJobs(timing),
      dispatchPublishingJob(timing),
    ],
  });
});

afterAll(async () => {
  await worker?.stop();
  await mastodon?.close();
  await x?.close();
  await database?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown) {
  const res = await door(
    new Request(`http://localhost:3000${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const settled = (postId: string) =>
  until(async () => {
    const status = await postStatus(database.db, postId);
    return status === 'published' || status === 'failed';
  }, `post ${postId} to settle`);

async function mastodonChannel(name: string) {
  const user = mastodon.addAccount({ username: name });
  return seedChannel(database.db, {
    accountId,
    integrationId: 'mastodon',
    kind: 'api_key',
    externalId: user.accountId,
    credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
  });
}

async function xChannel(name: string) {
  const user = x.addUser({ username: name });
  return seedChannel(database.db, {
    accountId,
    integrationId: 'x',
    externalId: user.userId,
    handle: `@${name}`,
    credentials: { accessToken: user.token, refreshToken: user.refreshToken },
  });
}

/** The types of the events recorded about a post, oldest first. */
async function eventTypes(postId: string) {
  const rows = await database.db
    .select({ type: events.type })
    .from(events)
    .where(sql`${events.payload}->'data'->'object'->>'id' = ${postId}`)
    .orderBy(asc(events.createdAt), asc(events.id));
  return rows.map((row) => row.type);
}

const tweetsWith = (text: string) =>
  x.received.filter((r) => r.method === 'POST' && r.url === '/2/tweets' && r.body.includes(text));

const png = () => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(512, 7)]);

describe('an unconfirmed target is sent again by no path', () => {
  it('draft, then publish, schedule or submit again: 409 naming it; the scheduler skips it', async () => {
    const channelId = await xChannel('xagain');
    x.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/2/tweets' });
    const created = await call('POST', '/api/content/posts', {
      title: 'Maybe out',
      content: 'Maybe out already',
      status: 'published',
      targets: [{ channelId }],
    });
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;
    await settled(postId);
    const [target] = await targetsOf(database.db, postId);
    expect(target).toMatchObject({ status: 'unconfirmed', attempts: 1 });
    // Retry leaves it alone, so it is not retryable; its message names no host or socket code.
    expect(target?.error).toMatchObject({ code: 'unconfirmed', retryable: false });
    expect(target?.error?.message).not.toMatch(/127\.0\.0\.1|UND_ERR|:\d{4,5}\b/);
    expect(tweetsWith('Maybe out already')).toHaveLength(1);

    expect((await call('POST', `/api/content/posts/${postId}/retry`, {})).status).toBe(409);
    // Back to draft is allowed (to edit it, or to keep it)...
    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );
    // ...but not out again while the target may be on the network, by any way.
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const [path, body] of [
      [`/api/content/posts/${postId}`, { status: 'published' }],
      [`/api/content/posts/${postId}`, { status: 'scheduled', scheduledAt: future }],
      [`/api/content/posts/${postId}/submit`, {}],
    ] as const) {
      const refused = await call(path.endsWith('submit') ? 'POST' : 'PUT', path, body);
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('invalid_status_transition');
      expect(refused.json.error.details.unconfirmedTargets).toEqual([target?.id]);
      expect(refused.json.error.message).toContain(target?.id);
    }
    expect(await postStatus(database.db, postId)).toBe('draft');
    expect((await targetsOf(database.db, postId))[0]?.status).toBe('unconfirmed');

    // Whatever way a round starts, the target is not re-armed: a post made due behind the
    // API's back goes to the scheduler, which sends nothing and ends it failed again.
    await database.db
      .update(posts)
      .set({ status: 'scheduled', scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, postId));
    await until(
      async () => (await postStatus(database.db, postId)) === 'failed',
      'the scheduler to take it',
    );
    expect((await targetsOf(database.db, postId))[0]?.status).toBe('unconfirmed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(tweetsWith('Maybe out already')).toHaveLength(1);

    // Resolving is the way on: found on the network, the target and the post are published.
    const targetId = target?.id ?? '';
    const resolved = await call(
      'POST',
      `/api/content/posts/${postId}/targets/${targetId}/resolve`,
      {
        published: true,
        url: 'https://x.com/xagain/status/1',
      },
    );
    expect(resolved.json.data.status).toBe('published');
    expect(tweetsWith('Maybe out already')).toHaveLength(1);
  });
});

describe('a changed text goes out as the new text', () => {
  /** A Mastodon thread whose head goes out and whose second part's image is refused. */
  async function halfSentThread(name: string, own?: string) {
    const channelId = await mastodonChannel(name);
    const mediaId = await storeMedia(database.db, storage, { accountId, bytes: png() });
    const target = {
      channelId,
      ...(own === undefined ? {} : { content: own }),
      thread: [{ content: `${name} part 2`, mediaIds: [mediaId] }],
    };
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed: File is invalid'), {
      method: 'POST',
      path: '/api/v2/media',
    });
    const created = await call('POST', '/api/content/posts', {
      title: name,
      content: `${name} OLD head`,
      status: 'published',
      targets: [target],
    });
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('failed');
    const [row] = await targetsOf(database.db, postId);
    expect(row?.progress.posted).toHaveLength(1);
    return { postId, target };
  }

  const statusOf = (id: string | null | undefined) =>
    mastodon.published().find((status) => status.id === id);

  it('a thread failed part-way links to its live head, until a new text replaces it', async () => {
    const { postId } = await halfSentThread('headlink');
    const [row] = await targetsOf(database.db, postId);
    const head = mastodon.published().find((s) => s.text === 'headlink OLD head');
    expect(head).toBeDefined();
    const got = await call('GET', `/api/content/posts/${postId}`);
    expect(got.json.data.targets[0]).toMatchObject({
      id: row?.id,
      status: 'failed',
      externalId: head?.id,
      url: `${mastodon.url}/@headlink/${head?.id}`,
      publishedAt: null,
    });
    // A new text is a new thread: the old head is not its post.
    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );
    const edited = await call('PUT', `/api/content/posts/${postId}`, {
      content: 'headlink NEW head',
    });
    expect(edited.json.data.targets[0]).toMatchObject({ externalId: null, url: null });
  });

  it("the post's own content, inherited by the target: the new head goes out", async () => {
    const { postId } = await halfSentThread('inherits');
    const draft = await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' });
    expect(draft.status).toBe(200);
    const edit = await call('PUT', `/api/content/posts/${postId}`, {
      content: 'inherits NEW head',
    });
    expect(edit.status).toBe(200);
    expect(
      (await call('PUT', `/api/content/posts/${postId}`, { status: 'published' })).status,
    ).toBe(200);
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    const [row] = await targetsOf(database.db, postId);
    expect(statusOf(row?.externalId)?.text).toBe('inherits NEW head');
    const thread = mastodon.published().filter((s) => s.inReplyToId === row?.externalId);
    expect(thread.map((s) => s.text)).toEqual(['inherits part 2']);
  });

  it("the target's own content: a new idempotency key, so Mastodon makes a new status", async () => {
    const { postId, target } = await halfSentThread('own', 'own OLD head');
    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );
    const edit = await call('PUT', `/api/content/posts/${postId}`, {
      targets: [{ ...target, content: 'own NEW head' }],
    });
    expect(edit.status).toBe(200);
    expect(
      (await call('PUT', `/api/content/posts/${postId}`, { status: 'published' })).status,
    ).toBe(200);
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    const [row] = await targetsOf(database.db, postId);
    expect(statusOf(row?.externalId)?.text).toBe('own NEW head');
    const heads = mastodon
      .published()
      .filter((s) => s.text === 'own OLD head' || s.text === 'own NEW head');
    expect(heads).toHaveLength(2);
    expect(heads[0]?.idempotencyKey).not.toBe(heads[1]?.idempotencyKey);
  });

  it('a retry of the same text keeps its key: the part already out is not sent again', async () => {
    const { postId } = await halfSentThread('same');
    expect((await call('POST', `/api/content/posts/${postId}/retry`, {})).status).toBe(200);
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    expect(mastodon.published().filter((s) => s.text === 'same OLD head')).toHaveLength(1);
  });
});

describe('a deleted medium', () => {
  it('stays named on the post: validate and scheduling refuse it, and no target goes out without it', async () => {
    const mastodonId = await mastodonChannel('gonemedia');
    const xId = await xChannel('gonemedia');
    const mediaId = await storeMedia(database.db, storage, { accountId, bytes: png() });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const body = {
      title: 'Gone',
      content: 'gonemedia with its image',
      mediaIds: [mediaId],
      status: 'scheduled',
      scheduledAt: future,
      targets: [{ channelId: mastodonId }, { channelId: xId, mediaIds: [mediaId] }],
    };
    const created = await call('POST', '/api/content/posts', body);
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;

    expect((await call('DELETE', `/api/content/media/${mediaId}`)).status).toBe(204);
    // The post still names the medium it was to send: nothing of it changed but the medium.
    const after = await call('GET', `/api/content/posts/${postId}`);
    expect(after.json.data.mediaIds).toEqual([mediaId]);
    expect(after.json.data.updatedAt).toBe(created.json.data.updatedAt);
    const checked = await call('POST', '/api/content/posts/validate', body);
    expect(checked.status).toBe(200);
    expect(checked.json.data.valid).toBe(false);
    expect(checked.json.data.issues.map((issue: { path: string }) => issue.path)).toEqual(
      expect.arrayContaining(['mediaIds', 'targets[1].mediaIds[0]']),
    );

    // Due now, behind the API's back (as a post scheduled before the deletion would be).
    await database.db
      .update(posts)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, postId));
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('failed');
    const rows = await targetsOf(database.db, postId);
    expect(rows.map((row) => [row.status, row.error?.code])).toEqual([
      ['failed', 'media_unavailable'],
      ['failed', 'media_unavailable'],
    ]);
    expect(mastodon.published().filter((s) => s.text.startsWith('gonemedia'))).toEqual([]);
    expect(tweetsWith('gonemedia')).toEqual([]);
  });
});

describe('a target that went out stays among the targets: the networks get the post once', () => {
  it('dropping X (unconfirmed) or Mastodon (published) and adding it back is refused', async () => {
    const mastodonId = await mastodonChannel('lockedm');
    const xId = await xChannel('lockedx');
    const text = 'locked once only';
    x.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/2/tweets' });
    const created = await call('POST', '/api/content/posts', {
      title: 'Locked',
      content: text,
      status: 'published',
      targets: [{ channelId: mastodonId }, { channelId: xId }],
    });
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;
    await settled(postId);
    const [sent, maybe] = await targetsOf(database.db, postId);
    expect([sent?.status, maybe?.status]).toEqual(['published', 'unconfirmed']);
    const onMastodon = () => mastodon.published().filter((s) => s.text === text);
    expect(onMastodon()).toHaveLength(1);
    expect(tweetsWith(text)).toHaveLength(1);
    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );

    // The probe's steps: X dropped from the list, then added back, then published.
    const withoutX = await call('PUT', `/api/content/posts/${postId}`, {
      targets: [{ channelId: mastodonId }],
    });
    expect(withoutX.status).toBe(409);
    expect(withoutX.json.error.code).toBe('target_locked');
    expect(withoutX.json.error.details.lockedTargets).toMatchObject([
      { targetId: maybe?.id, channelId: xId, status: 'unconfirmed', change: 'removed' },
    ]);
    const both = await call('PUT', `/api/content/posts/${postId}`, {
      targets: [{ channelId: mastodonId }, { channelId: xId }],
    });
    expect(both.status).toBe(200);
    expect(both.json.data.targets.map((t: { id: string }) => t.id)).toEqual([sent?.id, maybe?.id]);
    expect(
      (await call('PUT', `/api/content/posts/${postId}`, { status: 'published' })).status,
    ).toBe(409);

    // X was not published after all: resolved, it may go again. Mastodon's status stays the one.
    await database.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, postId));
    const resolved = await call(
      'POST',
      `/api/content/posts/${postId}/targets/${maybe?.id ?? ''}/resolve`,
      { published: false },
    );
    expect(resolved.status).toBe(200);
    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );
    const withoutMastodon = await call('PUT', `/api/content/posts/${postId}`, {
      targets: [{ channelId: xId }],
    });
    expect(withoutMastodon.status).toBe(409);
    expect(withoutMastodon.json.error.details.lockedTargets).toMatchObject([
      { targetId: sent?.id, channelId: mastodonId, status: 'published', change: 'removed' },
    ]);
    // (X refuses a tweet it already has: the dropped one was made, so X gets words of its own.)
    const again = await call('PUT', `/api/content/posts/${postId}`, {
      targets: [{ channelId: mastodonId }, { channelId: xId, content: `${text}, again` }],
    });
    expect(again.status).toBe(200);
    expect(
      (await call('PUT', `/api/content/posts/${postId}`, { status: 'published' })).status,
    ).toBe(200);
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    const [after] = await targetsOf(database.db, postId);
    expect(after).toMatchObject({ id: sent?.id, externalId: sent?.externalId, url: sent?.url });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(onMastodon()).toHaveLength(1);
    // The second tweet is the one the person said never went out.
    expect(tweetsWith(text)).toHaveLength(2);
  });
});

describe('resolving a target of a failed post', () => {
  it('is post.updated while the post stays failed, post.published once it ends published', async () => {
    const mastodonId = await mastodonChannel('resolvem');
    const xId = await xChannel('resolvex');
    const text = 'resolved by hand';
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed: Text is spam'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    x.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/2/tweets' });
    const created = await call('POST', '/api/content/posts', {
      title: 'Resolve',
      content: text,
      status: 'published',
      targets: [{ channelId: mastodonId }, { channelId: xId }],
    });
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;
    await settled(postId);
    const [refused, maybe] = await targetsOf(database.db, postId);
    expect([refused?.status, maybe?.status]).toEqual(['failed', 'unconfirmed']);
    expect(await eventTypes(postId)).toEqual(['post.created', 'post.publishing', 'post.failed']);

    // The tweet is there after all: the target is published, the post still failed (Mastodon),
    // and nothing was attempted, so the event is the target's change, not a second failure.
    const resolved = await call(
      'POST',
      `/api/content/posts/${postId}/targets/${maybe?.id ?? ''}/resolve`,
      { published: true, url: 'https://x.com/resolvex/status/1' },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.json.data.status).toBe('failed');
    expect(await eventTypes(postId)).toEqual([
      'post.created',
      'post.publishing',
      'post.failed',
      'post.updated',
    ]);

    // The retry sends Mastodon's again and ends the post: its own events, once each.
    expect((await call('POST', `/api/content/posts/${postId}/retry`, {})).status).toBe(200);
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    expect(await eventTypes(postId)).toEqual([
      'post.created',
      'post.publishing',
      'post.failed',
      'post.updated',
      'post.publishing',
      'post.published',
    ]);
    expect(tweetsWith(text)).toHaveLength(1);
    expect(mastodon.published().filter((s) => s.text === text)).toHaveLength(1);
  });
});
