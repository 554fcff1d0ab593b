import { and, asc, eq, inArray, isNull, lte, postTargets, posts, sql, type Db } from '@chorus/db';
import { recordEvent } from '../events/record';
import { makeTargetsDue } from '../publishing/start';
import { settlePost } from '../publishing/settle';
import { recordActivity } from './activity';
import { toPosts } from './records';
import { repeatDueSeries } from './series';

const clock = sql`clock_timestamp()`;

/**
 * Moves one batch of the posts whose time has come, with their events, in one transaction: a
 * post with targets goes `publishing` (its targets `pending`, event `post.publishing`; the
 * publishing engine sends them), a post without goes `published` (`post.published`), as
 * docs/publishing.md says. Exactly once comes from the database, whatever number of workers run:
 * due rows are locked with SKIP LOCKED (so workers share them out and never wait on a post
 * being edited), and the update still requires `status = 'scheduled'`, so a post unscheduled,
 * published by hand or deleted in the meantime is left alone. Returns how many posts it moved
 * and the targets it made due.
 */
export async function scheduleDueBatch(opts: {
  db: Db;
  limit?: number;
}): Promise<{ posts: number; targetIds: string[] }> {
  const { db, limit = 200 } = opts;
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: posts.id })
      .from(posts)
      .where(
        // A series stays scheduled past its start: its occurrences go out as copies.
        and(eq(posts.status, 'scheduled'), isNull(posts.recurrence), lte(posts.scheduledAt, clock)),
      )
      .orderBy(asc(posts.scheduledAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const hasTargets = sql`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${posts.id})`;
    const rows = await tx
      .update(posts)
      .set({
        status: sql`case when ${hasTargets} then 'publishing' else 'published' end::post_status`,
        publishedAt: sql`case when ${hasTargets} then null else ${clock} end`,
        updatedAt: clock,
      })
      .where(and(inArray(posts.id, due), eq(posts.status, 'scheduled')))
      .returning();
    const publishing = rows.filter((row) => row.status === 'publishing').map((row) => row.id);
    const targets = await makeTargetsDue(tx, publishing, 'unpublished');
    await recordActivity(
      tx,
      ...rows.map((row) => ({
        accountId: row.accountId,
        postId: row.id,
        actorId: null,
        action: row.status === 'publishing' ? ('publishing' as const) : ('published' as const),
      })),
    );
    const accountOf = new Map(rows.map((row) => [row.id, row.accountId]));
    for (const post of await toPosts(tx, rows)) {
      const accountId = accountOf.get(post.id) ?? '';
      const type = post.status === 'publishing' ? 'post.publishing' : 'post.published';
      await recordEvent({ tx, accountId, type, object: post });
    }
    // A post rescheduled after a round that published every target has nothing left to send.
    const sending = new Set(targets.map((target) => target.postId));
    for (const postId of publishing) if (!sending.has(postId)) await settlePost(tx, postId);
    return { posts: rows.length, targetIds: targets.map((target) => target.id) };
  });
}

/** Publishes one batch of due posts (scheduleDueBatch); returns how many posts it moved. */
export async function publishDueBatch(opts: { db: Db; limit?: number }): Promise<number> {
  return (await scheduleDueBatch(opts)).posts;
}

/**
 * Publishes every post that is due now, batch after batch, after copying the due occurrences
 * of recurring series (the copies are among the posts due). `onTargetsDue` hears of the
 * targets each batch made due, once its transaction has committed (the engine queues them).
 */
export async function publishDuePosts(opts: {
  db: Db;
  batchSize?: number;
  onTargetsDue?: (targetIds: string[]) => Promise<void>;
}): Promise<number> {
  const batchSize = opts.batchSize ?? 200;
  await repeatDueSeries({ db: opts.db });
  let total = 0;
  for (;;) {
    const batch = await scheduleDueBatch({ db: opts.db, limit: batchSize });
    total += batch.posts;
    if (batch.targetIds.length > 0) await opts.onTargetsDue?.(batch.targetIds);
    if (batch.posts < batchSize) return total;
  }
}
