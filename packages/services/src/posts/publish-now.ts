import type { Principal } from '@chorus/auth';
import { eq, postTargets, posts } from '@chorus/db';
import type { Post, PostStatus } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { hasTargets, startPublishing } from '../publishing/start';
import { assertPublishable } from '../publishing/validate';
import { AppError } from '../shared/errors';
import { recordActivity } from './activity';
import { mediaIdsOf, toOnePost, type PostRow } from './records';
import { asTargetInputs } from './targets';
import type { Tx } from './tx';

/**
 * The check before a round of sending (docs/publishing.md, Validate and Unconfirmed targets), the
 * one every path that starts or schedules sending calls: creating or updating into `scheduled`
 * or `published`, editing a scheduled post, submitting and approving (round `unpublished`), and
 * retry (round `failed`).
 *
 * - An `unconfirmed` target may already be on the network: it waits to be resolved, so a
 *   post holding one is not scheduled or published again (409 naming the targets; makeTargetsDue
 *   would skip it anyway, and the post would end `failed` again without saying why). Retry
 *   sends the failed targets only, so it leaves unconfirmed ones waiting and is not refused.
 * - The targets the round sends are checked as the post now stands in the transaction (its
 *   content, media and targets) against each one's network: an invalid one is 400. A target
 *   the round does not send (published, or not failed on a retry) is not held against it.
 */
export async function assertPublishableNow(
  tx: Tx,
  principal: Principal,
  row: PostRow,
  round: { which: 'unpublished' | 'failed'; from: PostStatus; to: PostStatus } = {
    which: 'unpublished',
    from: row.status,
    to: row.status,
  },
) {
  const targets = await tx
    .select()
    .from(postTargets)
    .where(eq(postTargets.postId, row.id))
    .orderBy(postTargets.position);
  if (targets.length === 0) return;
  const unconfirmed = targets.filter((target) => target.status === 'unconfirmed');
  if (round.which === 'unpublished' && unconfirmed.length > 0) {
    const ids = unconfirmed.map((target) => target.id);
    throw new AppError(
      'invalid_status_transition',
      `${ids.length === 1 ? 'A target' : `${ids.length} targets`} of this post may already be on the network (unconfirmed: ${ids.join(', ')}): resolve ${ids.length === 1 ? 'it' : 'them'} first (POST /api/content/posts/{id}/targets/{targetId}/resolve).`,
      {
        currentStatus: round.from,
        requestedStatus: round.to,
        allowedStatuses: [],
        unconfirmedTargets: ids,
      },
    );
  }
  const sending = new Set(
    targets.flatMap((target, index) =>
      (round.which === 'failed' ? target.status === 'failed' : target.status !== 'published')
        ? [index]
        : [],
    ),
  );
  await assertPublishable(
    tx,
    principal,
    {
      content: row.content,
      mediaIds: (await mediaIdsOf(tx, [row.id])).get(row.id) ?? [],
      targets: asTargetInputs(targets),
    },
    sending,
  );
}

/**
 * Publishes a post now, the one way publish now (`PUT { "status": "published" }`) and an
 * approval take, so both leave the same activity and events (docs/workflow.md): with targets
 * it goes `publishing` (startPublishing: its targets due, `post.publishing`) with the entry
 * `publishing`; without, it is `published` at once, with `post.published` and the entry
 * `published`. `first` records what led to it (an approval) before both, given the post as it
 * then is. Runs in the caller's transaction on a row it has locked; returns whether targets
 * were made due, so that the caller wakes the engine after commit.
 */
export async function publishPostNow(
  tx: Tx,
  row: PostRow,
  opts: { actorId: string | null; now: Date; first?: (post: Post) => Promise<void> },
): Promise<boolean> {
  const { actorId, now, first } = opts;
  const entry = { accountId: row.accountId, postId: row.id, actorId };
  if (await hasTargets(tx, row.id)) {
    await startPublishing(tx, row, 'unpublished', async (post) => {
      await first?.(post);
      await recordActivity(tx, { ...entry, action: 'publishing' });
    });
    return true;
  }
  const [published] = await tx
    .update(posts)
    .set({ status: 'published', publishedAt: now, updatedAt: now })
    .where(eq(posts.id, row.id))
    .returning();
  if (!published) throw new Error('a locked row vanished');
  const post = await toOnePost(tx, published);
  await first?.(post);
  await recordActivity(tx, { ...entry, action: 'published' });
  await recordEvent({ tx, accountId: row.accountId, type: 'post.published', object: post });
  return false;
}
