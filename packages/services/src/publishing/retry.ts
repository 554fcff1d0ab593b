import type { Principal } from '@chorus/auth';
import { and, eq, postTargets, posts, sql, type Db } from '@chorus/db';
import type { Post } from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { findPost, toOnePost } from '../posts/records';
import { recordActivity } from '../posts/activity';
import { assertMayPublish } from '../posts/rules';
import { assertPublishableNow } from '../posts/publish-now';
import { wakePublishing } from './engine/wake';
import { settlePost } from './settle';
import { startPublishing } from './start';

/**
 * `POST /api/content/posts/{id}/retry`: a `failed` post goes `publishing` again with its
 * `failed` targets only (docs/publishing.md); a published target is never sent again, and an
 * `unconfirmed` one waits to be resolved (it may be on the network already). 409 when the post
 * is not `failed`, or when it has no failed target (only unconfirmed ones: resolve them).
 */
export async function retryPost(opts: { db: Db; principal: Principal; id: string }): Promise<Post> {
  const { db, principal, id } = opts;
  const post = await db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    await assertMayPublish(tx, principal);
    if (row.status !== 'failed') {
      throw new AppError(
        'invalid_status_transition',
        `Only a failed post can be retried; this one is ${row.status}.`,
        { currentStatus: row.status, requestedStatus: 'publishing', allowedStatuses: [] },
      );
    }
    const [failed] = await tx
      .select({ id: postTargets.id })
      .from(postTargets)
      .where(and(eq(postTargets.postId, id), eq(postTargets.status, 'failed')))
      .limit(1);
    if (!failed) {
      throw new AppError(
        'invalid_status_transition',
        'No target of this post failed: resolve its unconfirmed targets instead.',
        { currentStatus: row.status, requestedStatus: 'publishing', allowedStatuses: [] },
      );
    }
    // The same check as publishing: a failed post's content and targets can be edited before
    // the retry, and what the networks would refuse is 400 here, not a second failure there.
    await assertPublishableNow(tx, principal, row, {
      which: 'failed',
      from: 'failed',
      to: 'publishing',
    });
    await recordActivity(tx, {
      accountId: row.accountId,
      postId: row.id,
      actorId: principal.userId,
      action: 'retried',
    });
    await startPublishing(tx, row, 'failed');
    return toOnePost(tx, await findPost(tx, principal, id));
  });
  wakePublishing();
  return post;
}

/**
 * `POST /api/content/posts/{id}/targets/{targetId}/resolve`: someone checked the network for
 * an `unconfirmed` target. `published: true` makes it `published` (with its `url` when given);
 * `published: false` makes it `failed`, retryable. The post then settles as if the engine had
 * written that outcome (settlePost): a `failed` post whose targets are now all published
 * becomes `published` (`post.published`); a post whose status stays is `post.updated`, never a
 * second `post.failed` (docs/publishing.md). 409 for a target that is not `unconfirmed`.
 */
export async function resolveTarget(opts: {
  db: Db;
  principal: Principal;
  id: string;
  targetId: string;
  input: { published: boolean; url?: string };
}): Promise<Post> {
  const { db, principal, id, targetId, input } = opts;
  if (!input.published && input.url !== undefined) {
    const message = 'A url goes with published: true only.';
    throw new AppError('validation_error', message, { issues: [{ path: 'url', message }] });
  }
  return db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    const [target] = await tx
      .select()
      .from(postTargets)
      .where(and(eq(postTargets.id, targetId), eq(postTargets.postId, row.id)))
      .for('update');
    if (!target) throw notFound('Target');
    if (target.status !== 'unconfirmed') {
      throw new AppError(
        'invalid_status_transition',
        `Only an unconfirmed target can be resolved; this one is ${target.status}.`,
        { currentStatus: target.status, allowedStatuses: [] },
      );
    }
    const clock = sql`clock_timestamp()`;
    await tx
      .update(postTargets)
      .set(
        input.published
          ? {
              status: 'published',
              url: input.url ?? target.url,
              publishedAt: clock,
              error: null,
              updatedAt: clock,
            }
          : {
              status: 'failed',
              error: {
                code: 'not_published',
                message: 'Resolved as not published: retry to send it again.',
                retryable: true,
              },
              updatedAt: clock,
            },
      )
      .where(eq(postTargets.id, targetId));
    await recordActivity(tx, {
      accountId: row.accountId,
      postId: row.id,
      actorId: principal.userId,
      action: 'resolved',
      targetId,
      channelId: target.channelId,
      details: { published: input.published },
    });
    // A failed post is settled again: its end may have changed (all published now).
    const settled = await settlePost(tx, row.id, ['publishing', 'failed']);
    if (settled) return toOnePost(tx, await findPost(tx, principal, id));
    // Its status stays (still on its way, or failed with nothing attempted): the change is the
    // target's, told as an update of the post, as any other edit is.
    await tx.update(posts).set({ updatedAt: clock }).where(eq(posts.id, row.id));
    const after = await toOnePost(tx, await findPost(tx, principal, id));
    await recordEvent({ tx, accountId: row.accountId, type: 'post.updated', object: after });
    return after;
  });
}
