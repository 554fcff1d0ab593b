import { eq, posts, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQueueClient,
  dispatchPublishingJob,
  publishDuePostsJob,
  startWorker,
  type JobDefinition,
  type Worker,
} from '../src';

/**
 * A worker killed in the middle of a sweep leaves that sweep's job active in pg-boss, which
 * expires it only at its maintenance, one to three minutes later. The chains of sweeps do not
 * wait for that: a worker that starts after the crash sweeps at once.
 */

let database: Database & { url: string };
let killed: PgBoss | undefined;
let worker: Worker | undefined;

beforeAll(async () => {
  database = await createTestServerDatabase();
});

afterAll(async () => {
  await worker?.stop();
  await killed?.stop({ graceful: false, wait: true });
  await database?.close();
});

describe('a sweep left running by a killed worker', () => {
  it('holds up neither the scheduler nor the publishing dispatcher', async () => {
    const chains: JobDefinition[] = [
      publishDuePostsJob({ intervalMs: 200, pollingIntervalSeconds: 0.5 }),
      dispatchPublishingJob({ sweepIntervalMs: 200, concurrency: 4 }),
    ];
    // The killed worker, of an earlier version (its queues were `stately`): it took each
    // chain's sweep, and will never finish it.
    killed = createQueueClient(database.url);
    await killed.start();
    const left: Array<[string, string]> = [];
    for (const chain of chains) {
      await killed.createQueue(chain.name, { ...chain.queue, name: chain.name, policy: 'stately' });
      await killed.send(chain.name, {});
      const [job] = await killed.fetch(chain.name);
      if (!job) throw new Error(`no sweep of ${chain.name} to take`);
      left.push([chain.name, job.id]);
    }
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'Killed',
      admin: { name: 'Ada', email: 'ada@killed.test', password: 'correct horse battery' },
    });
    const postId = newId('post');
    await database.db.insert(posts).values({
      id: postId,
      accountId,
      authorId: adminId,
      title: 'Due while the worker was down',
      status: 'scheduled',
      scheduledAt: new Date(Date.now() - 60_000),
    });

    const swept = new Set<string>();
    worker = await startWorker({
      databaseUrl: database.url,
      db: database.db,
      definitions: chains.map((chain) => ({
        ...chain,
        handle: async (jobs, context) => {
          await chain.handle(jobs, context);
          swept.add(chain.name);
        },
      })),
    });

    await expect
      .poll(() => [...swept].sort(), { timeout: 10_000, interval: 100 })
      .toEqual(chains.map((chain) => chain.name).sort());
    const [post] = await database.db.select().from(posts).where(eq(posts.id, postId));
    expect(post?.status).toBe('published');
    // Long before pg-boss would have expired what the killed worker left.
    for (const [name, id] of left) {
      expect((await killed.getJobById(name, id))?.state).toBe('active');
    }
  });
});
