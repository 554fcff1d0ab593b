import { and, count, eq, inArray, postOccurrences, posts } from '@chorus/db';
import { describe, expect, it } from 'vitest';
import { twoSchedulers } from './scheduler-fixtures';

const DAY = 86_400_000;

describe('recurring series with two workers on one database', () => {
  const world = twoSchedulers('Series');

  /** Daily series whose next occurrence is `next`, started `days` days before it. */
  const insertSeries = (n: number, next: Date, days: number) =>
    world.insertScheduled(n, {
      scheduledAt: new Date(next.getTime() - days * DAY),
      recurrence: 'FREQ=DAILY',
      nextOccurrenceAt: next,
    });

  it('publishes each occurrence once: a week missed while no worker ran, and one due in a second', async () => {
    // Served last a week ago: the week of downtime gives one copy, of today's occurrence.
    const missed = await insertSeries(10, new Date(Date.now() - 7 * DAY), 7);
    const dueSoon = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
    const due = await insertSeries(40, dueSoon, 3);
    await world.startBoth();
    const all = [...missed, ...due];
    const published = () =>
      world.db
        .select({ n: count() })
        .from(posts)
        .where(and(inArray(posts.recurrenceOf, all), eq(posts.status, 'published')));
    await expect
      .poll(async () => (await published())[0]?.n, { timeout: 20_000, interval: 100 })
      .toBe(all.length);
    // Some more sweeps by both workers add nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await published())[0]?.n).toBe(all.length);

    const copies = await world.db.select().from(posts).where(inArray(posts.recurrenceOf, all));
    expect(copies).toHaveLength(all.length);
    expect(new Set(copies.map((copy) => copy.recurrenceOf)).size).toBe(all.length);
    const [occurrences] = await world.db
      .select({ n: count() })
      .from(postOccurrences)
      .where(inArray(postOccurrences.postId, all));
    expect(occurrences?.n).toBe(all.length);
    const counts = await world.publishedEvents(copies.map((copy) => copy.id));
    expect(counts).toHaveLength(all.length);
    expect(counts.every((row) => row.n === 1)).toBe(true);
    for (const copy of copies.filter((c) => due.includes(c.recurrenceOf ?? ''))) {
      expect(copy.scheduledAt?.getTime()).toBe(dueSoon.getTime());
      expect((copy.publishedAt?.getTime() ?? 0) - dueSoon.getTime()).toBeLessThan(5_000);
    }
    const series = await world.db.select().from(posts).where(inArray(posts.id, all));
    expect(series.every((row) => (row.nextOccurrenceAt?.getTime() ?? 0) > Date.now())).toBe(true);
  });
});
