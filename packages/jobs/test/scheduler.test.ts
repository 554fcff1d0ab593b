import { and, count, eq, inArray, posts } from '@chorus/db';
import { describe, expect, it } from 'vitest';
import { twoSchedulers } from './scheduler-fixtures';

describe('the scheduler with two workers on one database', () => {
  const world = twoSchedulers('Sched');
  const insertScheduled = (n: number, scheduledAt: Date) =>
    world.insertScheduled(n, { scheduledAt });

  it('publishes on start what fell due while no worker ran, then 200 posts due in one second, each once', async () => {
    const overdue = await insertScheduled(3, new Date(Date.now() - 60_000));
    const dueSoon = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
    const due = await insertScheduled(200, dueSoon);
    // Unscheduled and deleted before their time: never published.
    const [unscheduled, deleted] = await insertScheduled(2, dueSoon);
    await world.db
      .update(posts)
      .set({ status: 'draft', scheduledAt: null })
      .where(eq(posts.id, unscheduled ?? ''));
    await world.db.delete(posts).where(eq(posts.id, deleted ?? ''));

    await world.startBoth();
    const all = [...overdue, ...due];
    await expect
      .poll(
        async () =>
          (
            await world.db
              .select({ n: count() })
              .from(posts)
              .where(and(inArray(posts.id, all), eq(posts.status, 'published')))
          )[0]?.n,
        { timeout: 20_000, interval: 100 },
      )
      .toBe(all.length);

    const counts = await world.publishedEvents([...all, unscheduled ?? '', deleted ?? '']);
    expect(counts).toHaveLength(all.length);
    expect(counts.every((row) => row.n === 1)).toBe(true);

    const rows = await world.db.select().from(posts).where(inArray(posts.id, due));
    for (const row of rows) {
      const lag = (row.publishedAt?.getTime() ?? 0) - dueSoon.getTime();
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(5_000);
    }
    const [draft] = await world.db
      .select()
      .from(posts)
      .where(eq(posts.id, unscheduled ?? ''));
    expect(draft?.status).toBe('draft');
  });
});
