import type { Principal } from '@chorus/auth';
import { eq, posts, type Db } from '@chorus/db';
import type { CreatePostInput, UpdatePostInput } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { newId } from '../ids';
import { findPost, toOnePost, toPost, type PostRow } from './records';
import {
  assertOwnMedia,
  eventOfStatus,
  replaceMedia,
  requireFutureSchedule,
  scheduleWithoutStatus,
} from './rules';
import { assertTransition } from './transitions';

const toDate = (value: string | null | undefined) =>
  value ? new Date(value) : (value as null | undefined);

/**
 * Creates a post. Creating it as `scheduled` or `published` follows the transition from
 * `draft` (decisions §10), and records that transition's event after `post.created`.
 */
export async function createPost(opts: { db: Db; principal: Principal; input: CreatePostInput }) {
  const { db, principal, input } = opts;
  const now = new Date();
  assertTransition('draft', input.status);
  let scheduledAt: Date | null = null;
  if (input.status === 'scheduled')
    scheduledAt = requireFutureSchedule(toDate(input.scheduledAt), now);
  else if (input.scheduledAt !== undefined) throw scheduleWithoutStatus();
  return db.transaction(async (tx) => {
    await assertOwnMedia(tx, principal, input.mediaIds);
    const [row] = await tx
      .insert(posts)
      .values({
        id: newId('post'),
        accountId: principal.accountId,
        authorId: principal.userId,
        title: input.title,
        content: input.content,
        status: input.status,
        tags: input.tags,
        scheduledAt,
        publishedAt: input.status === 'published' ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await replaceMedia(tx, row.id, input.mediaIds);
    const post = toPost(row, input.mediaIds);
    const { accountId } = principal;
    await recordEvent({ tx, accountId, type: 'post.created', object: post });
    const transition = eventOfStatus(post.status);
    if (transition) await recordEvent({ tx, accountId, type: transition, object: post });
    return post;
  });
}

/** The columns a status change sets besides `status` (decisions §10). */
function effectsOf(row: PostRow, input: UpdatePostInput, now: Date): Partial<PostRow> {
  const status = input.status ?? row.status;
  if (status === 'scheduled') {
    // Scheduling a draft needs a time; rescheduling changes it; otherwise it is kept.
    if (row.status === 'scheduled' && input.scheduledAt === undefined) return {};
    return { scheduledAt: requireFutureSchedule(toDate(input.scheduledAt), now) };
  }
  if (input.scheduledAt) throw scheduleWithoutStatus();
  if (status === row.status) return {};
  if (status === 'published') return { publishedAt: now };
  if (status === 'draft') return { scheduledAt: null, publishedAt: null };
  return {};
}

/**
 * Partial update. The row stays locked until commit, so the scheduler cannot publish a post
 * that is being unscheduled, and the event is recorded in the same transaction.
 */
export async function updatePost(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: UpdatePostInput;
}) {
  const { db, principal, id, input } = opts;
  return db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    const now = new Date();
    const status = input.status ?? row.status;
    assertTransition(row.status, status);
    const changes = effectsOf(row, input, now);
    if (input.mediaIds) {
      await assertOwnMedia(tx, principal, input.mediaIds);
      await replaceMedia(tx, id, input.mediaIds);
    }
    const [updated] = await tx
      .update(posts)
      .set({
        ...changes,
        status,
        title: input.title,
        content: input.content,
        tags: input.tags,
        updatedAt: now,
      })
      .where(eq(posts.id, id))
      .returning();
    if (!updated) throw new Error('a locked row vanished');
    const post = await toOnePost(tx, updated);
    const type = (status !== row.status && eventOfStatus(status)) || 'post.updated';
    await recordEvent({ tx, accountId: principal.accountId, type, object: post });
    return post;
  });
}
