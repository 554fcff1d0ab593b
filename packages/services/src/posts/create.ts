import type { Principal } from '@chorus/auth';
import { posts, type Db } from '@chorus/db';
import { postBodyIssues, type CreatePostInput, type Issue } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { wakePublishing } from '../publishing/engine/wake';
import { startPublishing } from '../publishing/start';
import { publishingIssues } from '../publishing/validate';
import { AppError } from '../shared/errors';
import { newId } from '../shared/ids';
import { recordActivity, statusAction, statusDetails } from './activity';
import { withNextSlot } from './next-slot';
import { assertPublishableNow } from './publish-now';
import { findPost, toOnePost } from './records';
import { nextOccurrenceOf } from './recurrence';
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
import { replaceTargets } from './targets';
import { assertTransition } from './transitions';
import type { Tx } from './tx';

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
    // Taking a slot is scheduling: refused as such before the slots are read (docs/posting-slots.md).
    if (opts.input.schedule === 'next_slot') await assertMayPublish(tx, principal);
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
    // A thread too long for the body's rule is too long for its network too: it is named once,
    // as create names it (the body's rule, with the most a thread can have).
    const threads = new Set(issues.flatMap((i) => (i.path.endsWith('.thread') ? [i.path] : [])));
    issues.push(
      ...(await publishingIssues(tx, principal, input)).filter((i) => !threads.has(i.path)),
    );
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
