import {
  and,
  count,
  eq,
  events,
  inArray,
  openDatabase,
  postOccurrences,
  posts,
  sql,
  type Database,
} from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishDuePostsJob, startWorker, type Worker } from '../src';

const timing = { intervalMs: 200, pollingIntervalSeconds: 0.5 };
const DAY = 86_400_000;

describe('recurring series with two workers on one database', () => {
  let database: Database & { url: string };
  let second: Database;
  const workers: Worker[] = [];
  let accountId: string;
  let adminId: string;

  /** Daily series whose next occurrence is `next`, started `days` days before it. */
  async function insertSeries(n: number, next: Date, days: number) {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId('post'),
      accountId,
      authorId: adminId,
      title: `Daily ${i}`,
      status: 'scheduled' as const,
      scheduledAt: new Date(next.getTime() - days * DAY),
      recurrence: 'FREQ=DAILY',
      nextOccurrenceAt: next,
    }));
    await database.db.insert(posts).values(rows);
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    database = await createTestServerDatabase();
    second = await openDatabase({ url: database.url, max: 5 });
    ({ accountId, adminId } = await createAccount(database.db, {
      name: 'Series',
      admin: { name: 'Ada', email: 'ada@series.test', password: 'correct horse battery' },
    }));
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await second?.close();
    await database?.close();
  });

  it('publishes each occurrence once: a week missed while no worker ran, and one due in a second', async () => {
    // Served last a week ago: the week of downtime gives one copy, of today's occurrence.
    const missed = await insertSeries(10, new Date(Date.now() - 7 * DAY), 7);
    const dueSoon = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
    const due = await insertSeries(40, dueSoon, 3);
    workers.push(
      ...(await Promise.all(
        [database.db, second.db].map((db) =>
          startWorker({ databaseUrl: database.url, db, definitions: [publishDuePostsJob(timing)] }),
        ),
      )),
    );
    const all = [...missed, ...due];
    const published = () =>
      database.db
        .select({ n: count() })
        .from(posts)
        .where(and(inArray(posts.recurrenceOf, all), eq(posts.status, 'published')));
    await expect
      .poll(async () => (await published())[0]?.n, { timeout: 20_000, interval: 100 })
      .toBe(all.length);
    // Some more sweeps by both workers add nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await published())[0]?.n).toBe(all.length);

    const copies = await database.db.select().from(posts).where(inArray(posts.recurrenceOf, all));
    expect(copies).toHaveLength(all.length);
    expect(new Set(copies.map((copy) => copy.recurrenceOf)).size).toBe(all.length);
    const [occurrences] = await database.db
      .select({ n: count() })
      .from(postOccurrences)
      .where(inArray(postOccurrences.postId, all));
    expect(occurrences?.n).toBe(all.length);
    const events_ = await database.db
      .select({ n: count() })
      .from(events)
      .where(
        and(
          eq(events.type, 'post.published'),
          inArray(
            sql`${events.payload}->'data'->'object'->>'id'`,
            copies.map((copy) => copy.id),
          ),
        ),
      );
    expect(events_[0]?.n).toBe(all.length);
    for (const copy of copies.filter((c) => due.includes(c.recurrenceOf ?? ''))) {
      expect(copy.scheduledAt?.getTime()).toBe(dueSoon.getTime());
      expect((copy.publishedAt?.getTime() ?? 0) - dueSoon.getTime()).toBeLessThan(5_000);
    }
    const series = await database.db.select().from(posts).where(inArray(posts.id, all));
    expect(series.every((row) => (row.nextOccurrenceAt?.getTime() ?? 0) > Date.now())).toBe(true);
  });
});
