import { and, eq, postTargets, posts, sql } from '@chorus/db';
import type { PostStatus } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { toPosts } from '../posts/records';
import type { Tx } from '../posts/tx';

/**
 * Ends a post's publishing once none of its targets is still on its way (docs/publishing.md):
 * `published` when every target is, `failed` when any is `failed` or `unconfirmed`; records
 * `post.published` or `post.failed` with the post. The one place this rule lives: the engine
 * calls it after each outcome, `resolve` after settling a target. Does nothing (null) while a
 * target is `pending` or `publishing`, when the post's status is not one of `from`, or when
 * its end is the status it has: a failed post `resolve` settles again and that stays failed
 * has not failed again (nothing was attempted), so it is not told as a second `post.failed`.
 */
export async function settlePost(
  tx: Tx,
  postId: string,
  /** The statuses it settles a post from: `publishing`; `resolve` adds `failed`. */
  from: readonly PostStatus[] = ['publishing'],
): Promise<'published' | 'failed' | null> {
  // Outcomes of one post's targets settle one after the other: without the lock, two
  // transactions ending the last two targets would each count the other's as still open
  // (read committed), and neither would settle the post.
  const [locked] = await tx
    .select({ status: posts.status })
    .from(posts)
    .where(eq(posts.id, postId))
    .for('update');
  if (!locked || !from.includes(locked.status)) return null;
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
  if (status === locked.status) return null;
  const [row] = await tx
    .update(posts)
    .set({
      status,
      publishedAt:
        status === 'published' ? (counts.lastPublishedAt ?? sql`clock_timestamp()`) : null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(and(eq(posts.id, postId), eq(posts.status, locked.status)))
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
