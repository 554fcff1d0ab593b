import type { Principal } from '@chorus/auth';
import { and, asc, eq, exists, inArray, or, postMedia, postTargets, posts, sql } from '@chorus/db';
import { AppError } from '../shared/errors';
import { assertMayEdit, GUARDED_STATUSES } from './edit-rules';
import type { PostRow } from './records';
import type { Tx } from './tx';

/**
 * The account's posts in a guarded status that send the medium: in their own media, a target's,
 * or a thread part's. Locked (`FOR SHARE`) until the caller commits, so no approval, scheduler
 * or publishing engine moves one on between the check and the change.
 */
function postsSending(tx: Tx, principal: Principal, mediaId: string) {
  const inPost = tx
    .select({ one: sql`1` })
    .from(postMedia)
    .where(and(eq(postMedia.postId, posts.id), eq(postMedia.mediaId, mediaId)));
  const thread = JSON.stringify([{ mediaIds: [mediaId] }]);
  const inTarget = tx
    .select({ one: sql`1` })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.postId, posts.id),
        or(
          sql`${mediaId} = any(${postTargets.mediaIds})`,
          sql`${postTargets.thread} @> ${thread}::jsonb`,
        ),
      ),
    );
  return tx
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.accountId, principal.accountId),
        inArray(posts.status, [...GUARDED_STATUSES]),
        or(exists(inPost), exists(inTarget)),
      ),
    )
    .orderBy(asc(posts.id))
    .for('share');
}

/** A post's refusal said of the medium: the post named, the issue on the medium's field. */
function aboutMedium(error: unknown, mediaId: string, post: PostRow, path: string) {
  if (!(error instanceof AppError)) return error;
  const message = `Media ${mediaId} goes out with post ${post.id} (${post.status}). ${error.message}`;
  const issues = error.details?.issues ? { issues: [{ path, message }] } : {};
  return new AppError(error.code, message, { ...issues, postId: post.id });
}

/**
 * A medium's alt text goes out with every post that sends the medium, so changing it changes
 * what those posts send: the rules of an update of their media (`assertMayEdit`), refused as
 * such naming the first post that refuses it (docs/media.md). What an admin approved is then
 * what goes out.
 */
export async function assertSendersEditable(
  tx: Tx,
  principal: Principal,
  mediaId: string,
  path: string,
) {
  for (const post of await postsSending(tx, principal, mediaId)) {
    try {
      await assertMayEdit(tx, principal, post, post.status, ['mediaIds']);
    } catch (error) {
      throw aboutMedium(error, mediaId, post, path);
    }
  }
}
