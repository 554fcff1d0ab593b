import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyticsDaily, eq, posts, sum, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId, storeConnection } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWorker,
  SYNC_ANALYTICS,
  SYNC_CONNECTION_ANALYTICS,
  syncAnalyticsJob,
  syncConnectionAnalyticsJob,
  type Worker,
} from '../src';

const TODAY = new Date().toISOString().slice(0, 10);
const ACCESS_TOKEN = 'stand-in-access-token';

describe('the analytics sync on the queue', () => {
  let database: Database & { url: string };
  let provider: Server;
  let worker: Worker;
  let accountId: string;
  let requests = 0;

  beforeAll(async () => {
    database = await createTestServerDatabase();
    const admin = { name: 'Ada', email: 'ada@sync-job.test', password: 'correct horse battery' };
    let adminId: string;
    ({ accountId, adminId } = await createAccount(database.db, { name: 'Sync', admin }));
    const postId = newId('post');
    await database.db
      .insert(posts)
      .values({ id: postId, accountId, authorId: adminId, title: 'P' });
    // The platform on loopback: today's figures for the post, to its access token only.
    provider = createServer((req, res) => {
      requests += 1;
      const ok = req.headers.authorization === `Bearer ${ACCESS_TOKEN}`;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(ok ? { data: [{ postId, date: TODAY, metrics: { impression: 5 } }] } : {}),
      );
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as AddressInfo;
    process.env.CHORUS_ENCRYPTION_KEY = 'c'.repeat(64);
    process.env.CHORUS_INTEGRATION_FACEBOOK_METRICS_URL = `http://127.0.0.1:${port}/metrics`;
    await storeConnection({
      db: database.db,
      accountId,
      userId: adminId,
      integrationId: 'facebook',
      credentials: { kind: 'oauth2', accessToken: ACCESS_TOKEN },
      scopes: [],
      meta: { accountName: 'Sync', pages: [] },
      now: new Date(),
    });
    worker = await startWorker({
      databaseUrl: database.url,
      db: database.db,
      definitions: [syncAnalyticsJob('0 * * * *'), syncConnectionAnalyticsJob()],
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await new Promise((resolve) => provider?.close(resolve));
    await database?.close();
    delete process.env.CHORUS_INTEGRATION_FACEBOOK_METRICS_URL;
  });

  const impressions = async () => {
    const [row] = await database.db
      .select({ n: sum(analyticsDaily.impression).mapWith(Number) })
      .from(analyticsDaily)
      .where(eq(analyticsDaily.accountId, accountId));
    return row?.n ?? 0;
  };

  async function completed(id: string | null) {
    if (!id) throw new Error('the job was not queued');
    for (let i = 0; i < 200; i++) {
      const job = await worker.boss.getJobById(SYNC_CONNECTION_ANALYTICS, id);
      if (job?.state === 'completed') return;
      if (job?.state === 'failed') throw new Error('the sync job failed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the sync job did not complete');
  }

  it('fans the scheduled sync out to each connection, which records its figures once', async () => {
    await worker.boss.send(SYNC_ANALYTICS, {});
    for (let i = 0; i < 200 && (await impressions()) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await impressions()).toBe(5);
    expect(requests).toBe(1);
    // The same connection synced again: the provider is read, nothing is counted twice.
    await completed(
      await worker.boss.send(SYNC_CONNECTION_ANALYTICS, { accountId, integrationId: 'facebook' }),
    );
    expect(requests).toBe(2);
    expect(await impressions()).toBe(5);
  });
});
