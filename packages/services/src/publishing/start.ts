import { and, eq, inArray, notInArray, postTargets, posts, sql } from '@chorus/db';
import type { Post } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { toOnePost, type PostRow } from '../posts/records';
import type { Tx } from '../posts/tx';
import { settlePost } from './settle';

/**
 * Makes a post's targets due (docs/publishing.md, the seam with the engine): the post becomes
 * `publishing`, the chosen targets `pending` with a fresh round (no attempts, no error, no
 * backoff), and `post.publishing` is recorded. `unpublished`: every target not yet published
 * (publish now, the scheduler); `failed`: only the failed ones (retry). A published target is
 * never made due again. When none is left to send, the post settles at once (settlePost).
 * Runs in the caller's transaction, on a row it has locked; the caller wakes the engine after
 * commit. `first` records what led to it (an approval) before `post.publishing`, in that order.
 */
export async function startPublishing(
  tx: Tx,
  row: PostRow,
  which: 'unpublished' | 'failed',
  first?: (post: Post) => Promise<void>,
): Promise<void> {
  const clock = sql`clock_timestamp()`;
  await makeTargetsDue(tx, [row.id], which);
  const [updated] = await tx
    .update(posts)
    .set({ status: 'publishing', publishedAt: null, updatedAt: clock })
    .where(eq(posts.id, row.id))
    .returning();
  if (!updated) throw new Error('a locked row vanished');
  const post = await toOnePost(tx, updated);
  await first?.(post);
  await recordEvent({ tx, accountId: row.accountId, type: 'post.publishing', object: post });
  await settlePost(tx, row.id);
}

/**
 * The targets of these posts that a new round sends, made `pending` with a fresh round; returns
 * them. The one place where "a published target is never sent again" and "an unconfirmed
 * target is never sent again by itself" are kept: publish now, approval, retry and the
 * scheduler all come through here. An `unconfirmed` target may already be on the network (on
 * one that takes no idempotency key, a second send would be a duplicate), so no round re-arms
 * it: only resolving it (`…/resolve`) moves it on. The paths a person takes are refused before
 * they get here (assertPublishableNow, 409 naming the targets); this is what holds whatever
 * path comes.
 */
export async function makeTargetsDue(
  tx: Tx,
  postIds: string[],
  which: 'unpublished' | 'failed',
): Promise<{ id: string; postId: string }[]> {
  if (postIds.length === 0) return [];
  return tx
    .update(postTargets)
    .set({
      status: 'pending',
      attempts: 0,
      error: null,
      nextAttemptAt: null,
      firstAttemptAt: null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      and(
        inArray(postTargets.postId, postIds),
        which === 'failed'
          ? eq(postTargets.status, 'failed')
          : notInArray(postTargets.status, ['published', 'unconfirmed']),
      ),
    )
    .returning({ id: postTargets.id, postId: postTargets.postId });
}

/** Whether a post has targets: without them publishing only changes its status (docs/publishing.md). */
export async function hasTargets(tx: Tx, postId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(inArray(postTargets.postId, [postId]))
    .limit(1);
  return found !== undefined;
}
