import type { Principal } from '@chorus/auth';
import { eq, posts, type Db } from '@chorus/db';
import type { Post, PostStatus, RejectPostInput, SubmitPostInput } from '@chorus/validators';
import { recordEvent } from '../events/record';
import { wakePublishing } from '../publishing/engine/wake';
import { recordActivity } from './activity';
import { findPost, toOnePost, type PostRow } from './records';
import { requireFutureSchedule } from './rules';
import { nextOccurrenceOf, startedSeries } from './recurrence';
import { refusedTransition } from './transitions';
import type { Tx } from './tx';
import { assertPublishableNow, publishPostNow } from './publish-now';

/** An action that starts from one status only: from any other it is a 409. */
function requireStatus(row: PostRow, required: PostStatus, to: PostStatus, done: string) {
  if (row.status === required) return;
  const what = required === 'draft' ? 'a draft' : 'a post pending approval';
  throw refusedTransition(
    row.status,
    to,
    `Only ${what} can be ${done}; this one is ${row.status}.`,
  );
}

/**
 * `POST …/submit`: a draft goes `pending_approval`, with the time its author wants it out
 * (kept in `scheduledAt`; none means as soon as it is approved). The post is checked against
 * its channels now, so an admin is not asked to approve what could not be sent. Submitting
 * clears the last rejection.
 */
export async function submitPost(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: SubmitPostInput;
}): Promise<Post> {
  const { db, principal, id, input } = opts;
  return db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    requireStatus(row, 'draft', 'pending_approval', 'submitted for approval');
    const scheduledAt = input.scheduledAt
      ? requireFutureSchedule(new Date(input.scheduledAt), new Date())
      : null;
    const updated = await setPost(tx, id, {
      status: 'pending_approval',
      scheduledAt,
      rejectionComment: null,
      rejectedBy: null,
      rejectedAt: null,
    });
    await startedSeries(tx, updated);
    await assertPublishableNow(tx, principal, updated, {
      which: 'unpublished',
      from: row.status,
      to: 'pending_approval',
    });
    const post = await toOnePost(tx, updated);
    await recordEvent({ tx, accountId: row.accountId, type: 'post.submitted', object: post });
    await recordActivity(tx, {
      ...entryOf(row, principal),
      action: 'submitted',
      details: scheduledAt ? { scheduledAt: scheduledAt.toISOString() } : {},
    });
    return post;
  });
}

/**
 * `POST …/approve` (admins): a post pending approval is scheduled at its `scheduledAt`, or,
 * when it has none or that time has passed, published now as publish now does it
 * (publishPostNow: with targets `publishing`). Records `post.approved` and its entry, then the
 * event and entry of the status it reached.
 */
export async function approvePost(opts: { db: Db; principal: Principal; id: string }) {
  const { db, principal, id } = opts;
  let woke = false;
  const post = await db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    const now = new Date();
    const later = row.scheduledAt !== null && row.scheduledAt > now;
    // A series is never published itself: one whose start has passed starts now.
    const series = row.recurrence !== null;
    requireStatus(row, 'pending_approval', later || series ? 'scheduled' : 'published', 'approved');
    await assertPublishableNow(tx, principal, row, {
      which: 'unpublished',
      from: row.status,
      to: later || series ? 'scheduled' : 'published',
    });
    const { accountId } = row;
    const approved = async (answer: Post) => {
      await recordEvent({ tx, accountId, type: 'post.approved', object: answer });
      await recordActivity(tx, approvedEntry(row, principal, answer));
    };
    if (!later && !series) {
      // A past time goes: the post is out now.
      const unscheduled = await setPost(tx, id, { scheduledAt: null });
      woke = await publishPostNow(tx, unscheduled, {
        actorId: principal.userId,
        now,
        first: approved,
      });
      return toOnePost(tx, await findPost(tx, principal, id));
    }
    const updated = await setPost(tx, id, await scheduledChanges(tx, row, now));
    const answer = await toOnePost(tx, updated);
    await approved(answer);
    await recordEvent({ tx, accountId, type: 'post.scheduled', object: answer });
    return answer;
  });
  if (woke) wakePublishing();
  return post;
}

/**
 * `POST …/reject` (admins): a post pending approval goes back to `draft` with the admin's
 * comment, which its author reads on the post (`rejection`) until they submit it again.
 */
export async function rejectPost(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: RejectPostInput;
}): Promise<Post> {
  const { db, principal, id, input } = opts;
  return db.transaction(async (tx) => {
    const row = await findPost(tx, principal, id, true);
    requireStatus(row, 'pending_approval', 'draft', 'rejected');
    const updated = await setPost(tx, id, {
      status: 'draft',
      scheduledAt: null,
      rejectionComment: input.comment,
      rejectedBy: principal.userId,
      rejectedAt: new Date(),
    });
    const post = await toOnePost(tx, updated);
    await recordEvent({ tx, accountId: row.accountId, type: 'post.rejected', object: post });
    await recordActivity(tx, {
      ...entryOf(row, principal),
      action: 'rejected',
      details: { comment: input.comment },
    });
    return post;
  });
}

const entryOf = (row: PostRow, principal: Principal) => ({
  accountId: row.accountId,
  postId: row.id,
  actorId: principal.userId,
});

/** An approval's entry tells what it led to: scheduled (at when), published, or publishing. */
const approvedEntry = (row: PostRow, principal: Principal, post: Post) => ({
  ...entryOf(row, principal),
  action: 'approved' as const,
  details: {
    status: post.status,
    ...(post.status === 'scheduled' && { scheduledAt: post.scheduledAt }),
  },
});

/** Scheduling an approved post: a series also gets its next occurrence. */
async function scheduledChanges(tx: Tx, row: PostRow, now: Date): Promise<Partial<PostRow>> {
  const scheduledAt = row.scheduledAt && row.scheduledAt > now ? row.scheduledAt : now;
  const status = 'scheduled' as const;
  const nextOccurrenceAt = await nextOccurrenceOf(tx, { ...row, status, scheduledAt }, now);
  return { status, scheduledAt, nextOccurrenceAt };
}

async function setPost(tx: Tx, id: string, changes: Partial<PostRow>): Promise<PostRow> {
  const [row] = await tx
    .update(posts)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(posts.id, id))
    .returning();
  if (!row) throw new Error('a locked row vanished');
  return row;
}
