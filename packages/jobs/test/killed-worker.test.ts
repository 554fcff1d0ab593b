import { eq, posts, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQueueClient,
  dispatchPublishingJob,
  publishDuePostsJob,
  REFRESH_TOKENS,
  refreshTokensJob,
  startWorker,
  type JobDefinition,
  type Worker,
} from '../src';

/**
 * A worker killed in the middle of a job leaves that job active in pg-boss, which expires it
 * only at its maintenance, minutes later. The recurring work does not wait for that: a worker
 * that starts after the crash goes on at once.
 */

let database: Database & { url: string };
let killed: PgBoss;
const workers: Worker[] = [];

beforeAll(async () => {
  database = await createTestServerDatabase();
  killed = createQueueClient(database.url);
  // Without a listener, an error of its pool (the database dropped at the end under a
  // connection it is still closing) would be thrown.
  killed.on('error', () => {});
  await killed.start();
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await killed?.stop({ graceful: false, wait: true });
  await database?.close();
});

/**
 * The killed worker, of an earlier version (its queues were `stately`): it took a job of the
 * queue, and will never finish it. Answers the job's id.
 */
async function leaveActive(definition: JobDefinition) {
  const { name } = definition;
  await killed.createQueue(name, { ...definition.queue, name, policy: 'stately' });
  await killed.send(name, {});
  const [job] = await killed.fetch(name);
  if (!job) throw new Error(`no job of ${name} to take`);
  return job.id;
}

async function start(definitions: JobDefinition[]) {
  const worker = await startWorker({ databaseUrl: database.url, db: database.db, definitions });
  workers.push(worker);
  return worker;
}

describe('a sweep left running by a killed worker', () => {
  it('holds up neither the scheduler nor the publishing dispatcher', async () => {
    const chains: JobDefinition[] = [
      publishDuePostsJob({ intervalMs: 200, pollingIntervalSeconds: 0.5 }),
      dispatchPublishingJob({ sweepIntervalMs: 200, concurrency: 4 }),
    ];
    const left: Array<readonly [string, string]> = [];
    for (const chain of chains) left.push([chain.name, await leaveActive(chain)] as const);
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
    await start(
      chains.map((chain) => ({
        ...chain,
        handle: async (jobs, context, settled) => {
          await chain.handle(jobs, context, settled);
          swept.add(chain.name);
        },
      })),
    );

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

describe('a token refresh left running by a killed worker', () => {
  it('does not hold back the next run', async () => {
    const refresh = refreshTokensJob('0 0 1 1 *'); // its cron never fires during the test
    const left = await leaveActive(refresh);
    const worker = await start([refresh]);

    const next = await worker.boss.send(REFRESH_TOKENS, {});
    await expect
      .poll(async () => (await worker.boss.getJobById(REFRESH_TOKENS, next ?? ''))?.state, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('completed');
    expect((await killed.getJobById(REFRESH_TOKENS, left))?.state).toBe('active');
  });
});
