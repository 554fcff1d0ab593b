import { and, asc, eq, inArray, lte, posts, sql, type Db } from '@chorus/db';
import { recordEvent } from '../events/record';
import { toPosts } from './records';

const clock = sql`clock_timestamp()`;

/**
 * Publishes one batch of the posts whose time has come, with their `post.published` events,
 * in one transaction. Exactly once comes from the database, whatever number of workers run:
 * due rows are locked with SKIP LOCKED (so workers share them out and never wait on a post
 * being edited), and the update still requires `status = 'scheduled'`, so a post unscheduled,
 * published by hand or deleted in the meantime is left alone. Returns how many it published.
 */
export async function publishDueBatch(opts: { db: Db; limit?: number }): Promise<number> {
  const { db, limit = 200 } = opts;
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.status, 'scheduled'), lte(posts.scheduledAt, clock)))
      .orderBy(asc(posts.scheduledAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await tx
      .update(posts)
      .set({ status: 'published', publishedAt: clock, updatedAt: clock })
      .where(and(inArray(posts.id, due), eq(posts.status, 'scheduled')))
      .returning();
    const accountOf = new Map(rows.map((row) => [row.id, row.accountId]));
    for (const post of await toPosts(tx, rows)) {
      const accountId = accountOf.get(post.id) ?? '';
      await recordEvent({ tx, accountId, type: 'post.published', object: post });
    }
    return rows.length;
  });
}

/** Publishes every post that is due now, batch after batch. */
export async function publishDuePosts(opts: { db: Db; batchSize?: number }): Promise<number> {
  const batchSize = opts.batchSize ?? 200;
  let total = 0;
  for (;;) {
    const published = await publishDueBatch({ db: opts.db, limit: batchSize });
    total += published;
    if (published < batchSize) return total;
  }
}
