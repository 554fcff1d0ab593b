import type { Principal } from '@chorus/auth';
import { eq, posts, type Db } from '@chorus/db';
import { recordEvent } from '../events/record';
import { findPost, toOnePost } from './records';

/**
 * Deletes a post (its media links go with it; the media stay). `post.deleted` carries the
 * post as it was. A scheduled post deleted before its time is never published: the
 * scheduler only publishes rows that still exist and are still scheduled.
 */
export async function deletePost(opts: { db: Db; principal: Principal; id: string }) {
  const { db, principal, id } = opts;
  await db.transaction(async (tx) => {
    const post = await toOnePost(tx, await findPost(tx, principal, id, true));
    await tx.delete(posts).where(eq(posts.id, id));
    await recordEvent({ tx, accountId: principal.accountId, type: 'post.deleted', object: post });
  });
}
