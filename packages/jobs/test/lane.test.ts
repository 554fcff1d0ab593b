import { sql, type Database } from '@chorus/db';
import { hasAnyControl } from '@chorus/validators';
import { createTestServerDatabase } from '@chorus/db/testing';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueClient } from '../src';
import { startLane, type Lane, type LaneHandler } from '../src/lane';

/** A lane (src/lane.ts) on a real queue: its slots, its completions, its failures, its stop. */

let database: Database & { url: string };
let boss: PgBoss;
const errors: Error[] = [];
let queues = 0;

beforeAll(async () => {
  database = await createTestServerDatabase();
  boss = createQueueClient(database.url);
  // The pool's errors are the test's (an 'error' event without a listener would throw); the
  // database dropped at the end can also end connections the pool is still closing.
  boss.on('error', (error) => errors.push(error));
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

async function queueWith(count: number) {
  const name = `lane-test-${++queues}`;
  await boss.createQueue(name, { name, retryLimit: 0 });
  await boss.insert(Array.from({ length: count }, (_, i) => ({ name, data: { n: i } })));
  return name;
}

const lane = (name: string, slots: number, handle: LaneHandler<{ n: number }>): Lane =>
  startLane(
    boss,
    name,
    { slots, pollingIntervalSeconds: 0.1, onError: (e) => errors.push(e) },
    handle,
  );

/** Jobs waiting in the queue, not yet taken. */
const queued = (name: string) => boss.getQueueSize(name);

const stateOf = async (name: string, id: string) => (await boss.getJobById(name, id))?.state;

describe('a lane', () => {
  it('keeps its slots full: a job that never ends holds one slot, the rest go through it', async () => {
    const name = await queueWith(20);
    const stuck = new Set<string>();
    const done: number[] = [];
    let inFlight = 0;
    let most = 0;
    const running = lane(name, 4, async (jobs, settled) => {
      inFlight += jobs.length;
      most = Math.max(most, inFlight);
      await Promise.all(
        jobs.map(async (job) => {
          // The first job fetched never ends while the test runs.
          if (stuck.size === 0) stuck.add(job.id);
          if (stuck.has(job.id)) return new Promise(() => {});
          await new Promise((resolve) => setTimeout(resolve, 5));
          done.push(job.data.n);
          inFlight--;
          settled(job.id);
        }),
      );
    });
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(19);
    expect(most).toBeLessThanOrEqual(4);
    const [stuckId] = stuck;
    expect(await stateOf(name, stuckId ?? '')).toBe('active');
    await running.stop(100);
    // The ended jobs are completed in the queue; the stuck one stays active, as a dead
    // worker leaves it, for its owner's recovery.
    expect(await queued(name)).toBe(0);
    expect(await stateOf(name, stuckId ?? '')).toBe('active');
  });

  it('completes in the queue every job it worked, settled one by one or with the batch', async () => {
    const name = await queueWith(10);
    const seen: string[] = [];
    const running = lane(name, 3, async (jobs, settled) => {
      seen.push(...jobs.map((job) => job.id));
      // Settles the first of each batch itself; the rest end with the batch.
      if (jobs[0]) settled(jobs[0].id);
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(10);
    await running.stop(1_000);
    const finished = await Promise.all(seen.map((id) => stateOf(name, id)));
    expect(finished).toEqual(Array(10).fill('completed'));
  });

  it('fails the open jobs of a batch whose handler throws, with its message', async () => {
    const name = await queueWith(2);
    const seen: string[] = [];
    const running = lane(name, 2, async (jobs) => {
      seen.push(...jobs.map((job) => job.id));
      throw new Error('the database went away');
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(2);
    await expect
      .poll(async () => Promise.all(seen.map((id) => stateOf(name, id))), { timeout: 10_000 })
      .toEqual(['failed', 'failed']);
    const job = await boss.getJobById(name, seen[0] ?? '');
    expect(job?.output).toEqual({ message: 'the database went away' });
    await running.stop(1_000);
  });

  it("stores a thrown query's failure as the database's own words, without the query's values", async () => {
    const name = await queueWith(1);
    const seen: string[] = [];
    // A value PostgreSQL cannot hold (NUL) in a query's parameters: drizzle's error says
    // "Failed query: … params: …" with the value, its cause what the database answered.
    const secret = 'sk_live_0123456789abcdef\u0000\u001b[2J';
    const running = lane(name, 1, async (jobs) => {
      seen.push(...jobs.map((job) => job.id));
      await database.db.execute(sql`select ${secret}::text`);
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => stateOf(name, seen[0] ?? ''), { timeout: 10_000 }).toBe('failed');
    const job = await boss.getJobById(name, seen[0] ?? '');
    const { message } = job?.output as { message: string };
    expect(message).not.toContain('sk_live');
    expect(message).not.toContain('Failed query');
    expect(hasAnyControl(message)).toBe(false);
    expect(message).toMatch(/0x00/);
    await running.stop(1_000);
  });

  it('stops fetching at stop, and waits for the jobs in flight', async () => {
    const name = await queueWith(3);
    let started = 0;
    let finished = 0;
    const running = lane(name, 1, async () => {
      started++;
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished++;
    });
    await expect.poll(() => started).toBe(1);
    await running.stop(5_000);
    // The job in flight at the stop ended before stop returned; no other was taken.
    expect([started, finished]).toEqual([1, 1]);
    expect(await queued(name)).toBe(2);
    expect(errors).toEqual([]);
  });
});
