import {
  and,
  asc,
  eq,
  isNotNull,
  lte,
  postMedia,
  postOccurrences,
  posts,
  postTargets,
  type Db,
} from '@chorus/db';
import { recordEvent } from '../events/record';
import { newId } from '../shared/ids';
import { recordActivity } from './activity';
import { toOnePost, type PostRow } from './records';
import { seriesOf, timeZonesOf } from './recurrence';
import { targetsToSend } from './to-send';
import type { Tx } from './tx';

/**
 * Copies the series' post as it stands now (so editing the original changes later
 * occurrences), scheduled at the occurrence: the due-post sweep that runs next publishes it
 * like any scheduled post, with the targets the series will send. The occurrence's row comes
 * first: its primary key refuses a second copy of one occurrence, whatever else went wrong.
 */
async function copyOccurrence(tx: Tx, series: PostRow, occurrenceAt: Date, now: Date) {
  const [claimed] = await tx
    .insert(postOccurrences)
    .values({ postId: series.id, occurrenceAt, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!claimed) return;
  const [copy] = await tx
    .insert(posts)
    .values({
      id: newId('post'),
      accountId: series.accountId,
      authorId: series.authorId,
      title: series.title,
      content: series.content,
      status: 'scheduled',
      tags: series.tags,
      scheduledAt: occurrenceAt,
      recurrenceOf: series.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!copy) throw new Error('insert returned no row');
  const media = await tx.select().from(postMedia).where(eq(postMedia.postId, series.id));
  if (media.length > 0) {
    await tx.insert(postMedia).values(media.map((link) => ({ ...link, postId: copy.id })));
  }
  // A locked target of the series is not copied. It went out before the post became a series
  // (refused since: docs/workflow.md#recurring-posts), it keeps what it sent (the text of then,
  // whatever edits follow) and can be neither changed nor dropped: copied, every occurrence
  // would go out there again, with that text, and nothing but ending the series would stop it.
  const targets = targetsToSend(
    await tx
      .select()
      .from(postTargets)
      .where(eq(postTargets.postId, series.id))
      .orderBy(asc(postTargets.position)),
  );
  if (targets.length > 0) {
    await tx.insert(postTargets).values(
      targets.map((target, position) => ({
        id: newId('tgt'),
        postId: copy.id,
        accountId: target.accountId,
        channelId: target.channelId,
        position,
        content: target.content,
        mediaIds: target.mediaIds,
        firstComment: target.firstComment,
        thread: target.thread,
      })),
    );
  }
  await tx
    .update(postOccurrences)
    .set({ copyId: copy.id })
    .where(
      and(eq(postOccurrences.postId, series.id), eq(postOccurrences.occurrenceAt, occurrenceAt)),
    );
  const at = occurrenceAt.toISOString();
  const { accountId } = series;
  await recordEvent({ tx, accountId, type: 'post.created', object: await toOnePost(tx, copy) });
  await recordActivity(
    tx,
    {
      accountId,
      postId: copy.id,
      actorId: null,
      action: 'created',
      details: { recurrenceOf: series.id, occurrenceAt: at },
    },
    {
      accountId,
      postId: series.id,
      actorId: null,
      action: 'repeated',
      details: { copyId: copy.id, occurrenceAt: at },
    },
  );
}

/**
 * One batch of the series whose next occurrence has come, in one transaction. Each gets a
 * copy for the LATEST occurrence it missed only: after downtime a daily post goes out once,
 * not once per day it missed. Due series are locked with SKIP LOCKED, so workers share them
 * out, and then wait for the occurrence after now. Returns how many series it moved on.
 */
export async function repeatDueBatch(opts: { db: Db; limit?: number }): Promise<number> {
  const { db, limit = 100 } = opts;
  return db.transaction(async (tx) => {
    const now = new Date();
    const due = await tx
      .select()
      .from(posts)
      .where(
        and(
          eq(posts.status, 'scheduled'),
          isNotNull(posts.nextOccurrenceAt),
          lte(posts.nextOccurrenceAt, now),
        ),
      )
      .orderBy(asc(posts.nextOccurrenceAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const zones = await timeZonesOf(
      tx,
      due.map((row) => row.accountId),
    );
    for (const row of due) {
      const { recurrence, scheduledAt, nextOccurrenceAt } = row;
      let next: Date | null = null;
      if (recurrence && scheduledAt && nextOccurrenceAt) {
        const series = seriesOf(recurrence, scheduledAt, zones.get(row.accountId) ?? 'UTC');
        const latest = series.latestBetween(nextOccurrenceAt, now);
        if (latest) await copyOccurrence(tx, row, latest, now);
        next = series.firstFrom(new Date(now.getTime() + 1));
      }
      await tx.update(posts).set({ nextOccurrenceAt: next }).where(eq(posts.id, row.id));
    }
    return due.length;
  });
}

/** Moves on every due series, batch after batch; returns how many it moved. */
export async function repeatDueSeries(opts: { db: Db; batchSize?: number }): Promise<number> {
  const batchSize = opts.batchSize ?? 100;
  let total = 0;
  for (;;) {
    const moved = await repeatDueBatch({ db: opts.db, limit: batchSize });
    total += moved;
    if (moved < batchSize) return total;
  }
}
