import { and, eq, postTargets, posts, sql } from '@chorus/db';
import { recordEvent } from '../events/record';
import { toPosts } from '../posts/records';
import type { Tx } from '../posts/tx';

/**
 * Ends a post's publishing once none of its targets is still on its way (docs/publishing.md):
 * `published` when every target is, `failed` when any is `failed` or `unconfirmed`; records
 * `post.published` or `post.failed` with the post. The one place this rule lives: the engine
 * calls it after each outcome, `resolve` after settling a target. Does nothing while a
 * target is `pending` or `publishing`, or when the post is not `publishing`.
 */
export async function settlePost(tx: Tx, postId: string): Promise<'published' | 'failed' | null> {
  // Outcomes of one post's targets settle one after the other: without the lock, two
  // transactions ending the last two targets would each count the other's as still open
  // (read committed), and neither would settle the post.
  await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
  const [counts] = await tx
    .select({
      open: sql<number>`count(*) filter (where ${postTargets.status} in ('pending', 'publishing'))::int`,
      bad: sql<number>`count(*) filter (where ${postTargets.status} in ('failed', 'unconfirmed'))::int`,
      lastPublishedAt: sql<Date | null>`max(${postTargets.publishedAt})`.mapWith(
        postTargets.publishedAt,
      ),
    })
    .from(postTargets)
    .where(eq(postTargets.postId, postId));
  if (!counts || counts.open > 0) return null;
  const status = counts.bad > 0 ? 'failed' : 'published';
  const [row] = await tx
    .update(posts)
    .set({
      status,
      publishedAt:
        status === 'published' ? (counts.lastPublishedAt ?? sql`clock_timestamp()`) : null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(and(eq(posts.id, postId), eq(posts.status, 'publishing')))
    .returning();
  if (!row) return null;
  const [post] = await toPosts(tx, [row]);
  await recordEvent({
    tx,
    accountId: row.accountId,
    type: status === 'published' ? 'post.published' : 'post.failed',
    object: post,
  });
  return status;
}
