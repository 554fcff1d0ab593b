import type { Principal } from '@chorus/auth';
import { eq, posts, type Db } from '@chorus/db';
import type { UpdatePostInput } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { wakePublishing } from '../publishing/engine/wake';
import { statusAction, statusDetails, recordActivity, type ActivityEntry } from './activity';
import { assertMayEdit, assertTargetsEditable, editedFields, type Editable } from './edit-rules';
import { withNextSlot } from './next-slot';
import { assertPublishableNow, publishPostNow } from './publish-now';
import { findPost, mediaIdsOf, toOnePost, type PostRow } from './records';
import { assertRecurrenceEditable, nextOccurrenceAfter } from './recurrence';
import {
  assertMayPublish,
  assertOwnMedia,
  assertPostBody,
  eventOfStatus,
  replaceMedia,
  requireFutureSchedule,
  scheduleWithoutStatus,
  toDate,
} from './rules';
import { followPostEdit, replaceTargets } from './targets';
import { assertTransition } from './transitions';

/**
 * The activity of an update: the fields it edited, then its change of status (a new time for
 * a scheduled post is scheduling it again).
 */
function updateEntries(row: PostRow, updated: PostRow, fields: Editable[], actorId: string) {
  const entry = { accountId: row.accountId, postId: row.id, actorId };
  const entries: ActivityEntry[] = [];
  if (fields.length > 0) entries.push({ ...entry, action: 'edited', details: { fields } });
  const rescheduled =
    updated.status === 'scheduled' && updated.scheduledAt?.getTime() !== row.scheduledAt?.getTime();
  const action = rescheduled ? 'scheduled' : statusAction(row.status, updated.status);
  if (action) entries.push({ ...entry, action, details: statusDetails(action, row, updated) });
  return entries;
}

/** The columns a status change sets besides `status` (docs/posts-and-scheduler.md). */
function effectsOf(row: PostRow, input: UpdatePostInput, now: Date): Partial<PostRow> {
  const status = input.status ?? row.status;
  if (status === 'scheduled') {
    // Scheduling a draft needs a time; rescheduling changes it; otherwise it is kept.
    if (row.status === 'scheduled' && input.scheduledAt === undefined) return {};
    return { scheduledAt: requireFutureSchedule(toDate(input.scheduledAt), now) };
  }
  if (input.scheduledAt) throw scheduleWithoutStatus();
  if (status === row.status) return {};
  // Publishing is publishPostNow's, publishedAt with it.
  if (status === 'published') return {};
  if (status === 'draft') return { scheduledAt: null, publishedAt: null };
  return {};
}

/**
 * Partial update. The row stays locked until commit, so the scheduler cannot publish a post
 * that is being unscheduled, and the event is recorded in the same transaction. Asking for
 * `published` with targets starts publishing them: the post answers `publishing` (docs/publishing.md).
 */
export async function updatePost(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: UpdatePostInput;
}) {
  const { db, principal, id } = opts;
  let woke = false;
  const post = await db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    const now = new Date();
    // Taking a slot is scheduling: refused as such before the slots are read (docs/posting-slots.md).
    if (opts.input.schedule === 'next_slot') await assertMayPublish(tx, principal);
    const input = await withNextSlot(tx, opts.input, row, now);
    const status = input.status ?? row.status;
    const edited = await editedFields(tx, row, input);
    const recurrence = input.recurrence === undefined ? row.recurrence : input.recurrence;
    if (edited.includes('recurrence')) await assertRecurrenceEditable(tx, row, recurrence);
    assertTransition(row.status, status, recurrence !== null);
    const changes = effectsOf(row, input, now);
    // Nothing changes (every field sent as it is, or none): the post as it is, and no trace of
    // an edit: no activity, no event, the same updatedAt (docs/workflow.md). It needs no right
    // to publish either, as it publishes nothing.
    const time = changes.scheduledAt === undefined ? row.scheduledAt : changes.scheduledAt;
    const sameTime = time?.getTime() === row.scheduledAt?.getTime();
    if (edited.length === 0 && status === row.status && sameTime) return toOnePost(tx, row);
    await assertMayEdit(tx, principal, row, status, edited);
    assertPostBody(input);
    // What the post sent before the edit: its locked targets keep it (followPostEdit).
    const before = {
      content: edited.includes('content') ? row.content : undefined,
      mediaIds: edited.includes('mediaIds') ? (await mediaIdsOf(tx, [id])).get(id) : undefined,
    };
    const newMedia = edited.includes('mediaIds') ? input.mediaIds : undefined;
    if (newMedia) await assertOwnMedia(tx, principal, newMedia);
    // Before followPostEdit: a locked target sent back as the post had it (falling back to the
    // post's old content) is then the target it is, not a change to it. Before the post's media
    // change too: a revised target's head is compared with what it sent (targetReviser).
    if (input.targets && edited.includes('targets')) {
      assertTargetsEditable(row, status);
      await replaceTargets(tx, principal, id, input.targets);
    }
    if (newMedia) await replaceMedia(tx, id, newMedia);
    await followPostEdit(tx, id, before);
    const publishNow = status === 'published' && row.status !== 'published';
    const [updated] = await tx
      .update(posts)
      .set({
        ...changes,
        // publishPostNow moves the post on from its current status.
        status: publishNow ? row.status : status,
        recurrence,
        nextOccurrenceAt: await nextOccurrenceAfter(tx, row, { status, recurrence, changes }, now),
        title: input.title,
        content: input.content,
        tags: input.tags,
        updatedAt: now,
      })
      .where(eq(posts.id, id))
      .returning();
    if (!updated) throw new Error('a locked row vanished');
    const sendable = edited.some((f) => f === 'content' || f === 'mediaIds' || f === 'targets');
    if (publishNow || (status === 'scheduled' && (status !== row.status || sendable))) {
      await assertPublishableNow(tx, principal, updated, {
        which: 'unpublished',
        from: row.status,
        to: status,
      });
    }
    await recordActivity(tx, ...updateEntries(row, updated, edited, principal.userId));
    if (publishNow) {
      woke = await publishPostNow(tx, updated, { actorId: principal.userId, now });
      return toOnePost(tx, await findPost(tx, principal, id));
    }
    const answer = await toOnePost(tx, updated);
    const type = (status !== row.status && eventOfStatus(status)) || 'post.updated';
    await recordEvent({ tx, accountId: principal.accountId, type, object: answer });
    return answer;
  });
  if (woke) wakePublishing();
  return post;
}
