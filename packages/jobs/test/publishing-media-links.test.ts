import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiListener, createHttpServer } from '@chorus/api/server';
import { defaultRateLimiter } from '@chorus/api';
import { createRestHandler } from '@chorus/api/rest';
import type { Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, sharedMediaUrl, wakePublishing } from '@chorus/services';
import { startInstagram, startThreads, type InstagramStandIn } from '@chorus/stand-ins';
import { localDiskStorage } from '@chorus/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPublishingJob, publishTargetJobs, startWorker, type Worker } from '../src';
import { insertPost, postStatus, seedChannel, storeMedia, targetsOf } from './publishing-fixtures';
import { until } from './until';

/**
 * Networks that fetch media by URL (Instagram, Threads) get a signed link to our REST door,
 * served here by the app's own listener on loopback: the stand-ins really fetch it, while the
 * link holds, with no credential.
 */

let database: Database & { url: string };
let worker: Worker;
let ig: InstagramStandIn;
let threads: Awaited<ReturnType<typeof startThreads>>;
let api: { origin: string; close: () => Promise<void>; served: { path: string; status: number }[] };
let storageDir: string;
let accountId: string;
const saved: Record<string, string | undefined> = Object.create(null);

/** The REST door behind the app's listener, recording what it answered on which path. */
async function serveApi(db: Database) {
  const storage = localDiskStorage(storageDir);
  const door = createRestHandler({
    getDatabase: async () => db,
    rateLimiter: defaultRateLimiter(),
    storage,
  });
  const served: { path: string; status: number }[] = [];
  const server = createHttpServer();
  server.on(
    'request',
    createApiListener({
      mounts: [
        [
          '/api',
          async (req) => {
            const res = await door(req);
            served.push({ path: new URL(req.url).pathname, status: res.status });
            return res;
          },
        ],
      ],
      webPaths: [],
      web: (_req, res) => res.writeHead(404).end(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  database = await createTestServerDatabase();
  storageDir = await mkdtemp(join(tmpdir(), 'chorus-links-'));
  ig = await startInstagram();
  threads = await startThreads();
  for (const [name, value] of [
    ['CHORUS_INTEGRATION_INSTAGRAM_API_URL', `${ig.url}/v21.0`],
    ['CHORUS_INTEGRATION_THREADS_API_URL', `${threads.url}/v1.0`],
  ] as const) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  api = await serveApi(database);
  ({ accountId } = await createAccount(database.db, {
    name: 'Links',
    admin: { name: 'Ada', email: 'ada@links.test', password: 'correct horse battery' },
  }));
  const timing = { sweepIntervalMs: 200, concurrency: 4 };
  worker = await startWorker({
    databaseUrl: database.url,
    db: database.db,
    media: {
      storage: localDiskStorage(storageDir),
      sign: (row) => sharedMediaUrl(api.origin, row.id),
    },
    definitions: [...publishTargetJobs(timing), dispatchPublishingJob(timing)],
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await ig?.close();
  await threads?.close();
  await database?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

/** JPEG's first bytes, as the networks sniff them. */
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4092, 7)]);

async function publishNowWithImage(integrationId: 'instagram' | 'threads', externalId: string) {
  const channelId = await seedChannel(database.db, {
    accountId,
    integrationId,
    externalId,
    credentials: { accessToken: `${integrationId}-token` },
  });
  const mediaId = await storeMedia(database.db, localDiskStorage(storageDir), {
    accountId,
    bytes: jpeg(),
    mimeType: 'image/jpeg',
  });
  const { postId } = await insertPost(database.db, {
    accountId,
    content: `A photo for ${integrationId}`,
    mediaIds: [mediaId],
    targets: [{ channelId }],
    publishNow: true,
  });
  wakePublishing();
  await until(async () => (await postStatus(database.db, postId)) !== 'publishing', 'settled');
  return { postId, mediaId };
}

describe('media for networks that fetch it by URL', () => {
  it('Instagram fetches the image through a signed link that expires within the hour', async () => {
    const account = ig.addAccount({ token: 'instagram-token', username: 'links', name: 'Links' });
    const { postId, mediaId } = await publishNowWithImage('instagram', account.id);
    const [target] = await targetsOf(database.db, postId);
    expect(target, JSON.stringify(target?.error)).toMatchObject({ status: 'published' });
    const [url] = ig.media.at(-1)?.urls ?? [];
    const link = new URL(url ?? '');
    expect(link.origin).toBe(api.origin);
    expect(link.pathname).toBe(`/api/content/media/${mediaId}/shared`);
    const expires = Number(link.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(0);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(api.served).toContainEqual({ path: link.pathname, status: 200 });
  });

  it('Threads fetches it the same way', async () => {
    const profile = threads.addProfile({
      token: 'threads-token',
      username: 'links',
      name: 'Links',
    });
    const { postId, mediaId } = await publishNowWithImage('threads', profile.id);
    const [target] = await targetsOf(database.db, postId);
    expect(target, JSON.stringify(target?.error)).toMatchObject({ status: 'published' });
    const path = `/api/content/media/${mediaId}/shared`;
    expect(threads.posts.at(-1)?.urls.map((u) => new URL(u).pathname)).toEqual([path]);
    expect(api.served).toContainEqual({ path, status: 200 });
  });
});
