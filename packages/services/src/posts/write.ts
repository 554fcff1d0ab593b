import type { Principal } from '@chorus/auth';
import { eq, postTargets, posts, type Db } from '@chorus/db';
import {
  postBodyIssues,
  type CreatePostInput,
  type Issue,
  type Post,
  type PostStatus,
  type UpdatePostInput,
} from '@chorus/validators';
import { AppError } from '../shared/errors';
import { recordEvent } from '../events/record';
import { newId } from '../shared/ids';
import { wakePublishing } from '../publishing/engine/wake';
import { hasTargets, startPublishing } from '../publishing/start';
import { assertPublishable, publishingIssues } from '../publishing/validate';
import { recordActivity, statusAction, type ActivityEntry } from './activity';
import { findPost, mediaIdsOf, toOnePost, type PostRow } from './records';
import {
  assertMayPublish,
  assertOwnMedia,
  assertPostBody,
  eventOfStatus,
  replaceMedia,
  requireFutureSchedule,
  scheduleWithoutStatus,
} from './rules';
import { withNextSlot } from './next-slot';
import { assertRecurrenceEditable, nextOccurrenceAfter, nextOccurrenceOf } from './recurrence';
import { asTargetInputs, replaceTargets, reviseInheritingTargets, targetsDiffer } from './targets';
import { assertTransition } from './transitions';
import type { Tx } from './tx';

const toDate = (value: string | null | undefined) =>
  value ? new Date(value) : (value as null | undefined);

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

/**
 * Creates a post. Creating it as `scheduled` or `published` follows the transition from
 * `draft` (docs/posts-and-scheduler.md), and records that transition's event after `post.created`; asking
 * for `published` with targets starts publishing them (the post answers `publishing`,
 * docs/publishing.md).
 */
export async function createPost(opts: { db: Db; principal: Principal; input: CreatePostInput }) {
  const { db, principal } = opts;
  const now = new Date();
  let publishNow = false;
  const post = await db.transaction(async (tx) => {
    const { input, recurrence, scheduledAt } = await checkCreate(tx, principal, opts.input, now);
    publishNow = input.status === 'published' && input.targets.length > 0;
    if (input.status !== 'draft') await assertMayPublish(tx, principal);
    const [row] = await tx
      .insert(posts)
      .values({
        id: newId('post'),
        accountId: principal.accountId,
        authorId: principal.userId,
        title: input.title,
        content: input.content,
        // Asked `published` with targets, it goes `publishing` (docs/publishing.md).
        status: publishNow ? 'publishing' : input.status,
        tags: input.tags,
        scheduledAt,
        publishedAt: input.status === 'published' && !publishNow ? now : null,
        recurrence,
        nextOccurrenceAt: await nextOccurrenceOf(
          tx,
          { accountId: principal.accountId, status: input.status, recurrence, scheduledAt },
          now,
        ),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await replaceMedia(tx, row.id, input.mediaIds);
    await replaceTargets(tx, principal, row.id, input.targets);
    if (input.status !== 'draft') await assertPublishableNow(tx, principal, row);
    const { accountId } = principal;
    await recordEvent({ tx, accountId, type: 'post.created', object: await toOnePost(tx, row) });
    const entry = { accountId, postId: row.id, actorId: principal.userId };
    const reached = statusAction('draft', row.status);
    await recordActivity(
      tx,
      { ...entry, action: 'created' },
      ...(reached
        ? [{ ...entry, action: reached, details: statusDetails(reached, row, row) }]
        : []),
    );
    if (publishNow) {
      await startPublishing(tx, row, 'unpublished');
      return toOnePost(tx, await findPost(tx, principal, row.id));
    }
    const created = await toOnePost(tx, row);
    const transition = eventOfStatus(created.status);
    if (transition) await recordEvent({ tx, accountId, type: transition, object: created });
    return created;
  });
  if (publishNow) wakePublishing();
  return post;
}

/**
 * What a create body asks that create refuses before writing anything: a `schedule` with no
 * free slot, a status the post cannot start in, a `scheduledAt` in the past or without
 * `scheduled`, post media the account does not have. Create and validate both call it, so
 * validate never calls valid what create would refuse (docs/publishing.md, Validate). Answers
 * the body with its slot filled in, and what create stores of it.
 */
async function checkCreate(tx: Tx, principal: Principal, body: CreatePostInput, now: Date) {
  const asked = await withNextSlot(tx, body, { accountId: principal.accountId }, now);
  // A post is created a draft unless asked otherwise (or scheduled by `next_slot`).
  const input = { ...asked, status: asked.status ?? 'draft' };
  const recurrence = input.recurrence ?? null;
  assertTransition('draft', input.status, recurrence !== null);
  let scheduledAt: Date | null = null;
  if (input.status === 'scheduled')
    scheduledAt = requireFutureSchedule(toDate(input.scheduledAt), now);
  else if (input.scheduledAt !== undefined) throw scheduleWithoutStatus();
  await assertOwnMedia(tx, principal, input.mediaIds);
  assertPostBody(input);
  return { input, recurrence, scheduledAt };
}

/**
 * `POST /api/content/posts/validate`: the issues of a create body, nothing written. The body
 * goes through create's own checks (checkCreate), then every target through its network's
 * (publishingIssues), whatever the body's status: 200 `{ valid, issues }` either way.
 */
export async function validatePost(opts: {
  db: Db;
  principal: Principal;
  input: CreatePostInput;
}): Promise<{ valid: boolean; issues: Issue[] }> {
  const { principal } = opts;
  return opts.db.transaction(async (tx) => {
    // The body's rules first, whatever else create would refuse before reaching them.
    const issues: Issue[] = postBodyIssues(opts.input);
    let input = opts.input;
    try {
      ({ input } = await checkCreate(tx, principal, opts.input, new Date()));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'validation_error' && Array.isArray(error.details?.issues)) {
        issues.push(...(error.details.issues as Issue[]));
      } else if (error.code === 'invalid_status_transition') {
        issues.push({ path: 'status', message: error.message });
      } else throw error;
    }
    issues.push(...(await publishingIssues(tx, principal, input)));
    // Post media unknown to both checks are named once, as create names them (`mediaIds`).
    const postMedia = issues.some((issue) => issue.path === 'mediaIds');
    const seen = new Set<string>();
    const unique = issues.filter((issue) => {
      if (postMedia && issue.path.startsWith('mediaIds[')) return false;
      const key = `${issue.path}\n${issue.message}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
    return { valid: unique.length === 0, issues: unique };
  });
}

/**
 * What an entry of a change of status tells (docs/workflow.md): the time a post is now
 * scheduled at, or the time that unscheduling or withdrawing it dropped, so that the activity
 * still says when it would have gone out.
 */
function statusDetails(action: ActivityEntry['action'] | null, before: PostRow, after: PostRow) {
  const at =
    action === 'scheduled'
      ? after.scheduledAt
      : action === 'unscheduled' || action === 'withdrawn'
        ? before.scheduledAt
        : null;
  return at ? { scheduledAt: at.toISOString() } : {};
}

/** The fields of an update body that change what the post says or where it goes. */
type Editable = 'title' | 'content' | 'tags' | 'mediaIds' | 'targets' | 'recurrence';

/** Lists equal as the post shows them: tags and media keep their order, so order counts. */
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The fields whose value an update changes, in the post's order. A field sent with the value
 * it has is no edit (a client that sends the whole post back): it writes no `edited` entry, no
 * event, and may be sent where changing it is refused (the targets of a published post).
 */
async function editedFields(tx: Tx, row: PostRow, input: UpdatePostInput) {
  const fields: Editable[] = [];
  if (input.title !== undefined && input.title !== row.title) fields.push('title');
  if (input.content !== undefined && input.content !== row.content) fields.push('content');
  if (input.tags && !sameList(input.tags, row.tags)) fields.push('tags');
  if (input.mediaIds) {
    const current = (await mediaIdsOf(tx, [row.id])).get(row.id) ?? [];
    if (!sameList(input.mediaIds, current)) fields.push('mediaIds');
  }
  if (input.targets && (await targetsDiffer(tx, row.id, input.targets))) fields.push('targets');
  if (input.recurrence !== undefined && input.recurrence !== row.recurrence) {
    fields.push('recurrence');
  }
  return fields;
}

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
 * Targets change while nothing of them has gone out: a draft, or a scheduled post
 * (docs/publishing.md#targets).
 */
function assertTargetsEditable(row: PostRow, status: PostRow['status']) {
  if (row.status === 'draft' || row.status === 'scheduled' || status === 'draft') return;
  const message = `The targets of a ${row.status} post cannot change; they can while it is a draft or scheduled.`;
  throw new AppError('validation_error', message, { issues: [{ path: 'targets', message }] });
}

/**
 * A post's content and media change at any time but while it is `publishing`: the engine reads
 * them as each target goes out, so the targets not yet sent would carry the new ones and the
 * networks would disagree. A failed post's are fixed, then retried. The same values again are
 * no change (`editedFields`).
 */
/**
 * What an admin approves is what its author submitted: while a post waits for approval, only
 * an admin (who approves it) changes what it says; its author withdraws it to draft to edit it
 * (in the same update, too) and submits it again (docs/workflow.md).
 */
function assertPendingKept(
  row: PostRow,
  status: PostRow['status'],
  edited: Editable[],
  principal: Principal,
) {
  const [field] = edited;
  if (row.status !== 'pending_approval' || status !== row.status || !field) return;
  if (principal.role === 'admin') return;
  const message =
    'A post awaiting approval cannot change; withdraw it to draft to edit it, then submit it again.';
  throw new AppError('validation_error', message, { issues: [{ path: field, message }] });
}

function assertSentPartsKept(row: PostRow, edited: Editable[]) {
  if (row.status !== 'publishing') return;
  const changed = edited.find((field) => field === 'content' || field === 'mediaIds');
  if (!changed) return;
  const message = `The ${changed} of a post cannot change while it is publishing; it can once publishing ends.`;
  throw new AppError('validation_error', message, { issues: [{ path: changed, message }] });
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
    const input = await withNextSlot(tx, opts.input, row, now);
    const status = input.status ?? row.status;
    const edited = await editedFields(tx, row, input);
    if (edited.includes('recurrence')) assertRecurrenceEditable(row);
    const recurrence = input.recurrence === undefined ? row.recurrence : input.recurrence;
    assertTransition(row.status, status, recurrence !== null);
    const changes = effectsOf(row, input, now);
    // Nothing changes (every field sent as it is, or none): the post as it is, and no trace of
    // an edit: no activity, no event, the same updatedAt (docs/workflow.md). It needs no right
    // to publish either, as it publishes nothing.
    const time = changes.scheduledAt === undefined ? row.scheduledAt : changes.scheduledAt;
    const sameTime = time?.getTime() === row.scheduledAt?.getTime();
    if (edited.length === 0 && status === row.status && sameTime) return toOnePost(tx, row);
    // Scheduling, publishing, and changing what a scheduled post will send are all publishing.
    const publishes = status === 'scheduled' || (status === 'published' && row.status !== status);
    if (publishes) await assertMayPublish(tx, principal);
    assertPendingKept(row, status, edited, principal);
    assertSentPartsKept(row, edited);
    assertPostBody(input);
    if (input.mediaIds && edited.includes('mediaIds')) {
      await assertOwnMedia(tx, principal, input.mediaIds);
      await replaceMedia(tx, id, input.mediaIds);
    }
    if (input.targets && edited.includes('targets')) {
      assertTargetsEditable(row, status);
      await replaceTargets(tx, principal, id, input.targets);
    }
    await reviseInheritingTargets(tx, id, {
      content: edited.includes('content'),
      mediaIds: edited.includes('mediaIds'),
    });
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
