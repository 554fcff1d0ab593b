import type { Principal } from '@chorus/auth';
import { and, eq, ne, posts, type Db } from '@chorus/db';
import { recordEvent } from '../events/record';
import { findPost, toOnePost } from './records';
import { AppError } from '../shared/errors';

/**
 * Deletes a post (its media links go with it; the media stay). `post.deleted` carries the
 * post as it was. A scheduled post deleted before its time is never published: the
 * scheduler only publishes rows that still exist and are still scheduled.
 *
 * A `publishing` post is not deleted (409, as for any other change of its status): its targets
 * are on their way to the networks, and their outcomes, links and any `unconfirmed` target to
 * resolve would have nowhere to go. It can be deleted once publishing ends. The row is locked
 * and the delete itself requires the status, so the scheduler or a publish-now that moves it
 * to `publishing` meanwhile cannot slip in between the check and the delete.
 */
export async function deletePost(opts: { db: Db; principal: Principal; id: string }) {
  const { db, principal, id } = opts;
  await db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    const post = await toOnePost(tx, row);
    const deleted = await tx
      .delete(posts)
      .where(and(eq(posts.id, id), ne(posts.status, 'publishing')))
      .returning({ id: posts.id });
    if (deleted.length === 0) {
      throw new AppError(
        'invalid_status_transition',
        'A publishing post cannot be deleted: its targets are on their way to the networks. It can be once publishing ends.',
        { currentStatus: row.status, allowedStatuses: [] },
      );
    }
    await recordEvent({ tx, accountId: principal.accountId, type: 'post.deleted', object: post });
  });
}
