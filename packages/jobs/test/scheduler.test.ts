import {
  and,
  count,
  eq,
  events,
  inArray,
  openDatabase,
  posts,
  sql,
  type Database,
} from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishDuePostsJob, startWorker, type Worker } from '../src';

const timing = { intervalMs: 200, pollingIntervalSeconds: 0.5 };

describe('the scheduler with two workers on one database', () => {
  let database: Database & { url: string };
  let second: Database;
  const workers: Worker[] = [];
  let accountId: string;
  let adminId: string;

  async function insertScheduled(n: number, scheduledAt: Date) {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId('post'),
      accountId,
      authorId: adminId,
      title: `Due ${i}`,
      status: 'scheduled' as const,
      scheduledAt,
    }));
    await database.db.insert(posts).values(rows);
    return rows.map((row) => row.id);
  }

  const publishedEvents = (ids: string[]) =>
    database.db
      .select({ postId: sql<string>`${events.payload}->'data'->'object'->>'id'`, n: count() })
      .from(events)
      .where(
        and(
          eq(events.type, 'post.published'),
          inArray(sql`${events.payload}->'data'->'object'->>'id'`, ids),
        ),
      )
      .groupBy(sql`1`);

  beforeAll(async () => {
    database = await createTestServerDatabase();
    second = await openDatabase({ url: database.url, max: 5 });
    ({ accountId, adminId } = await createAccount(database.db, {
      name: 'Sched',
      admin: { name: 'Ada', email: 'ada@sched.test', password: 'correct horse battery' },
    }));
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await second?.close();
    await database?.close();
  });

  it('publishes on start what fell due while no worker ran, then 200 posts due in one second, each once', async () => {
    const overdue = await insertScheduled(3, new Date(Date.now() - 60_000));
    const dueSoon = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
    const due = await insertScheduled(200, dueSoon);
    // Unscheduled and deleted before their time: never published.
    const [unscheduled, deleted] = await insertScheduled(2, dueSoon);
    await database.db
      .update(posts)
      .set({ status: 'draft', scheduledAt: null })
      .where(eq(posts.id, unscheduled ?? ''));
    await database.db.delete(posts).where(eq(posts.id, deleted ?? ''));

    // Both at once, as web and worker processes start on a fresh deployment.
    workers.push(
      ...(await Promise.all(
        [database.db, second.db].map((db) =>
          startWorker({ databaseUrl: database.url, db, definitions: [publishDuePostsJob(timing)] }),
        ),
      )),
    );
    const all = [...overdue, ...due];
    await expect
      .poll(
        async () =>
          (
            await database.db
              .select({ n: count() })
              .from(posts)
              .where(and(inArray(posts.id, all), eq(posts.status, 'published')))
          )[0]?.n,
        { timeout: 20_000, interval: 100 },
      )
      .toBe(all.length);

    const counts = await publishedEvents([...all, unscheduled ?? '', deleted ?? '']);
    expect(counts).toHaveLength(all.length);
    expect(counts.every((row) => row.n === 1)).toBe(true);

    const rows = await database.db.select().from(posts).where(inArray(posts.id, due));
    for (const row of rows) {
      const lag = (row.publishedAt?.getTime() ?? 0) - dueSoon.getTime();
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(5_000);
    }
    const [draft] = await database.db
      .select()
      .from(posts)
      .where(eq(posts.id, unscheduled ?? ''));
    expect(draft?.status).toBe('draft');
  });
});
