import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRateLimiter } from '@chorus/api';
import { createRestHandler } from '@chorus/api/rest';
import { createApiListener, createHttpServer } from '@chorus/api/server';
import type { Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey, sharedMediaUrl } from '@chorus/services';
import {
  graphFaults,
  linkedinFaults,
  mastodonFaults,
  startFacebook,
  startInstagram,
  startLinkedInStandIn,
  startMastodonStandIn,
  startThreads,
  startXStandIn,
  xFaults,
  type FacebookStandIn,
  type InstagramStandIn,
  type LinkedInStandIn,
  type MastodonStandIn,
  type ThreadsStandIn,
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
import { postStatus, seedChannel, storeMedia } from './publishing-fixtures';
import { until } from './until';

/**
 * A first comment (or a later thread part) refused after the post itself went out, on each
 * network, through the REST door, a worker and the network stand-ins (docs/publishing.md,
 * Targets and States): the failed target links to the live post, and fixing the comment, then
 * publishing again, sends the comment alone. What the networks receive is counted, not only
 * what Chorus answers.
 */

let database: Database & { url: string };
let worker: Worker;
let storage: StorageDriver;
let storageDir: string;
let door: (req: Request) => Promise<Response>;
let api: { origin: string; close: () => Promise<void> };
let token: string;
let accountId: string;
let mastodon: MastodonStandIn;
let x: XStandIn;
let linkedin: LinkedInStandIn;
let facebook: FacebookStandIn;
let instagram: InstagramStandIn;
let threads: ThreadsStandIn;
const saved: Record<string, string | undefined> = Object.create(null);

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  database = await createTestServerDatabase();
  storageDir = await mkdtemp(join(tmpdir(), 'chorus-comments-'));
  storage = localDiskStorage(storageDir);
  [mastodon, x, linkedin, facebook, instagram, threads] = await Promise.all([
    startMastodonStandIn({ rateLimit: { limit: 10_000, windowMs: 60_000 } }),
    startXStandIn(),
    startLinkedInStandIn(),
    startFacebook({ app: { id: 'app-1', secret: 'secret-1' } }),
    startInstagram(),
    startThreads(),
  ]);
  for (const [name, value] of [
    // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
    ['CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS', 'true'],
    ['CHORUS_INTEGRATION_X_API_URL', x.url],
    ['CHORUS_INTEGRATION_LINKEDIN_API_URL', linkedin.url],
    ['CHORUS_INTEGRATION_FACEBOOK_API_URL', `${facebook.url}/v21.0`],
    ['CHORUS_INTEGRATION_INSTAGRAM_API_URL', `${instagram.url}/v21.0`],
    ['CHORUS_INTEGRATION_THREADS_API_URL', `${threads.url}/v1.0`],
  ] as const) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  door = createRestHandler({
    getDatabase: async () => database,
    rateLimiter: defaultRateLimiter(),
    storage,
  });
  // Instagram and Threads fetch media by a signed link to the REST door: served on loopback.
  const server = createHttpServer();
  server.on(
    'request',
    createApiListener({
      mounts: [['/api', door]],
      webPaths: [],
      web: (_req, res) => res.writeHead(404).end(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const created = await createAccount(database.db, {
    name: 'Comments',
    admin: { name: 'Ada', email: 'ada@comments.test', password: 'correct horse battery' },
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
    media: { storage, sign: (row) => sharedMediaUrl(api.origin, row.id) },
    definitions: [
      publishDuePostsJob({ intervalMs: 100, pollingIntervalSeconds: 0.5 }),
      ...publishTargetJobs(timing),
      dispatchPublishingJob(timing),
    ],
  });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  for (const standIn of [mastodon, x, linkedin, facebook, instagram, threads]) {
    await standIn?.close();
  }
  await database?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
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

interface TargetAnswer {
  id: string;
  status: string;
  externalId: string | null;
  url: string | null;
  firstComment: string | null;
  error: { code: string } | null;
}

const settled = async (postId: string) => {
  await until(async () => {
    const status = await postStatus(database.db, postId);
    return status === 'published' || status === 'failed';
  }, `post ${postId} to settle`);
  const got = await call('GET', `/api/content/posts/${postId}`);
  return got.json.data as { status: string; targets: TargetAnswer[] };
};

/** JPEG's first bytes, as the networks sniff them. */
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4092, 7)]);

/** One network as these tests drive it: a channel, a refused comment, what it holds. */
interface Network {
  name: string;
  /** A new channel of a new account there (so counts are of this test's posts only). */
  channel(handle: string): Promise<string>;
  /** The network refuses the next first comment (the post itself goes through). */
  refuseComment(): void;
  /** The target's fields besides the channel and the comment (Instagram needs an image). */
  extra(): Promise<Record<string, unknown>>;
  /** How many main posts with this text the network was asked to make. */
  postsSent(text: string): number;
  /** The comments on the post `externalId` the network holds. */
  commentsOn(externalId: string): string[];
}

const NETWORKS: Network[] = [
  {
    name: 'Mastodon',
    async channel(handle) {
      const user = mastodon.addAccount({ username: handle });
      return seedChannel(database.db, {
        accountId,
        integrationId: 'mastodon',
        kind: 'api_key',
        externalId: user.accountId,
        credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
      });
    },
    refuseComment: () =>
      mastodon.faults.inject(mastodonFaults.rejected('Validation failed: Text is refused'), {
        method: 'POST',
        path: '/api/v1/statuses',
        after: 1,
      }),
    extra: async () => ({}),
    postsSent: (text) =>
      mastodon.received.filter(
        (r) => r.method === 'POST' && r.url === '/api/v1/statuses' && r.body.includes(text),
      ).length,
    commentsOn: (id) =>
      mastodon
        .published()
        .filter((s) => s.inReplyToId === id)
        .map((s) => s.text),
  },
  {
    name: 'X',
    async channel(handle) {
      const user = x.addUser({ username: handle });
      return seedChannel(database.db, {
        accountId,
        integrationId: 'x',
        externalId: user.userId,
        handle: `@${handle}`,
        credentials: { accessToken: user.token, refreshToken: user.refreshToken },
      });
    },
    refuseComment: () =>
      x.faults.inject(xFaults.rejected('The reply is refused.'), {
        method: 'POST',
        path: '/2/tweets',
        after: 1,
      }),
    extra: async () => ({}),
    postsSent: (text) =>
      x.received.filter(
        (r) => r.method === 'POST' && r.url === '/2/tweets' && r.body.includes(text),
      ).length,
    commentsOn: (id) =>
      x
        .published()
        .filter((t) => t.inReplyToId === id)
        .map((t) => t.text),
  },
  {
    name: 'LinkedIn',
    async channel() {
      const member = linkedin.member;
      return seedChannel(database.db, {
        accountId,
        integrationId: 'linkedin',
        externalId: member.urn,
        handle: member.urn,
        credentials: { accessToken: member.token, refreshToken: member.refreshToken },
      });
    },
    refuseComment: () =>
      linkedin.faults.inject(linkedinFaults.rejected('Comment refused by LinkedIn'), {
        method: 'POST',
        path: /^\/rest\/socialActions\/.*\/comments$/,
      }),
    extra: async () => ({}),
    postsSent: (text) =>
      linkedin.received.filter(
        (r) => r.method === 'POST' && r.url.startsWith('/rest/posts') && r.body.includes(text),
      ).length,
    commentsOn: (urn) =>
      linkedin
        .published()
        .filter((post) => post.urn === urn)
        .flatMap((post) => post.comments.map((comment) => comment.text)),
  },
  {
    name: 'Facebook',
    async channel(handle) {
      const page = `${500 + Math.floor(Math.random() * 1e6)}`;
      facebook.addUser({
        token: `${handle}-user`,
        pages: [{ id: page, name: handle, token: `${handle}-page` }],
      });
      return seedChannel(database.db, {
        accountId,
        integrationId: 'facebook',
        externalId: page,
        credentials: { accessToken: `${handle}-page` },
        onChannel: true,
      });
    },
    refuseComment: () =>
      facebook.faults.inject(graphFaults.rejected(), { method: 'POST', path: /\/comments$/ }),
    extra: async () => ({}),
    postsSent: (text) => facebook.posts.filter((post) => post.message === text).length,
    commentsOn: (id) => facebook.comments.filter((c) => c.on === id).map((c) => c.message),
  },
  {
    name: 'Instagram',
    async channel(handle) {
      const account = instagram.addAccount({
        token: `${handle}-token`,
        username: handle,
        name: handle,
      });
      return seedChannel(database.db, {
        accountId,
        integrationId: 'instagram',
        externalId: account.id,
        credentials: { accessToken: `${handle}-token` },
      });
    },
    refuseComment: () =>
      instagram.faults.inject(graphFaults.rejected(), { method: 'POST', path: /\/comments$/ }),
    extra: async () => ({
      mediaIds: [
        await storeMedia(database.db, storage, {
          accountId,
          bytes: jpeg(),
          mimeType: 'image/jpeg',
        }),
      ],
    }),
    postsSent: (text) => instagram.media.filter((item) => item.caption === text).length,
    commentsOn: (id) => instagram.comments.filter((c) => c.on === id).map((c) => c.message),
  },
  {
    name: 'Threads',
    async channel(handle) {
      const profile = threads.addProfile({
        token: `${handle}-token`,
        username: handle,
        name: handle,
      });
      return seedChannel(database.db, {
        accountId,
        integrationId: 'threads',
        externalId: profile.id,
        credentials: { accessToken: `${handle}-token` },
      });
    },
    // The comment is a reply container, made after the post's own.
    refuseComment: () =>
      threads.faults.inject(graphFaults.rejected(), {
        method: 'POST',
        path: /\/threads$/,
        after: 1,
      }),
    extra: async () => ({}),
    postsSent: (text) => threads.posts.filter((post) => post.text === text).length,
    commentsOn: (id) => threads.posts.filter((p) => p.replyTo === id).map((p) => p.text),
  },
];

describe('a first comment refused after the post went out', () => {
  it.each(NETWORKS)(
    '$name: the failed target links to the live post; the fixed comment goes out alone',
    async (network) => {
      const handle = `c${network.name.toLowerCase()}`;
      const channelId = await network.channel(handle);
      const text = `${network.name} post whose comment is refused`;
      network.refuseComment();
      const created = await call('POST', '/api/content/posts', {
        title: network.name,
        content: text,
        status: 'published',
        targets: [{ channelId, firstComment: 'first words', ...(await network.extra()) }],
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const postId: string = created.json.data.id;
      const failed = await settled(postId);
      const [target] = failed.targets;
      expect(target).toMatchObject({ status: 'failed', error: { code: 'rejected' } });
      expect(network.postsSent(text)).toBe(1);
      // The post is live: the target says where, so nobody thinks nothing went out.
      expect(target?.externalId).toEqual(expect.any(String));
      expect(target?.url).toMatch(/^https?:\/\//);
      expect(network.commentsOn(target?.externalId ?? '')).toEqual([]);

      // The comment fixed the way a person can: back to draft, the new comment, publish.
      expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
        200,
      );
      const fixed = await call('PUT', `/api/content/posts/${postId}`, {
        status: 'published',
        targets: failed.targets.map((t) => ({ ...t, firstComment: 'better words' })),
      });
      expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
      const after = await settled(postId);
      expect(after.status).toBe('published');
      expect(after.targets[0]).toMatchObject({
        id: target?.id,
        status: 'published',
        externalId: target?.externalId,
        url: target?.url,
        firstComment: 'better words',
      });
      // One post on the network, and the new comment under it.
      expect(network.postsSent(text)).toBe(1);
      expect(network.commentsOn(target?.externalId ?? '')).toEqual(['better words']);
    },
  );
});

describe('a later thread part refused after the head went out', () => {
  it('Mastodon: the head and the parts before the fixed one stay, the rest go out under them', async () => {
    const [onMastodon] = NETWORKS;
    const channelId = (await onMastodon?.channel('cthread')) ?? '';
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed: Text is refused'), {
      method: 'POST',
      path: '/api/v1/statuses',
      after: 2,
    });
    const created = await call('POST', '/api/content/posts', {
      title: 'Thread',
      content: 'cthread 1/3',
      status: 'published',
      targets: [
        {
          channelId,
          thread: [{ content: 'cthread 2/3' }, { content: 'cthread 3/3 refused' }],
          firstComment: 'cthread comment',
        },
      ],
    });
    expect(created.status).toBe(201);
    const postId: string = created.json.data.id;
    const failed = await settled(postId);
    const head = mastodon.published().find((s) => s.text === 'cthread 1/3');
    expect(failed.targets[0]).toMatchObject({ status: 'failed', externalId: head?.id });

    expect((await call('PUT', `/api/content/posts/${postId}`, { status: 'draft' })).status).toBe(
      200,
    );
    const fixed = await call('PUT', `/api/content/posts/${postId}`, {
      status: 'published',
      targets: failed.targets.map((t) => ({
        ...t,
        thread: [{ content: 'cthread 2/3' }, { content: 'cthread 3/3 fixed' }],
      })),
    });
    expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
    const after = await settled(postId);
    expect(after.targets[0]).toMatchObject({ status: 'published', externalId: head?.id });
    const of = (words: string) => mastodon.published().filter((s) => s.text === words);
    expect(of('cthread 1/3')).toHaveLength(1);
    expect(of('cthread 2/3')).toHaveLength(1);
    expect(of('cthread 3/3 fixed')).toMatchObject([{ inReplyToId: of('cthread 2/3')[0]?.id }]);
    expect(of('cthread comment')).toMatchObject([{ inReplyToId: head?.id }]);
    // Sent under the new revision's keys: not the refused part's.
    expect(of('cthread 3/3 fixed')[0]?.idempotencyKey).toBe(`${failed.targets[0]?.id}.r1:2`);
  });
});
