import type { Principal } from '@chorus/auth';
import { eq, field, postActivity, type Db, type RowOf } from '@chorus/db';
import type { Activity, ActivityAction, PostStatus } from '@chorus/validators';
import { newId } from '../shared/ids';
import { readTablePage, type PageRequest } from '../shared/pagination';
import { findPost, type PostRow } from './records';
import type { Tx } from './tx';

export interface ActivityEntry {
  accountId: string;
  postId: string;
  /** The member who did it; null for Chorus itself (the scheduler, the publishing engine). */
  actorId: string | null;
  action: ActivityAction;
  targetId?: string | null;
  channelId?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Adds entries to posts' activity. Call it with the transaction of the change it records, like
 * an event: a change that rolls back leaves no entry, a committed one always has its own.
 */
export async function recordActivity(tx: Pick<Tx, 'insert'>, ...entries: ActivityEntry[]) {
  if (entries.length === 0) return;
  await tx.insert(postActivity).values(
    entries.map((entry) => ({
      id: newId('act'),
      accountId: entry.accountId,
      postId: entry.postId,
      actorId: entry.actorId,
      action: entry.action,
      targetId: entry.targetId ?? null,
      channelId: entry.channelId ?? null,
      details: entry.details ?? {},
      createdAt: new Date(),
    })),
  );
}

/** The entry a change of status from `from` to `to` makes, when it is not an action's own. */
export function statusAction(from: PostStatus, to: PostStatus): ActivityAction | null {
  if (from === to) return null;
  if (to === 'draft') {
    if (from === 'pending_approval') return 'withdrawn';
    return from === 'scheduled' ? 'unscheduled' : 'restored';
  }
  if (to === 'scheduled' || to === 'published' || to === 'publishing' || to === 'archived') {
    return to;
  }
  return null;
}

const activityFields = {
  id: field.column(postActivity.id),
  action: field.column(postActivity.action),
  actorId: field.column(postActivity.actorId),
  targetId: field.column(postActivity.targetId),
  channelId: field.column(postActivity.channelId),
  details: field.column(postActivity.details),
  createdAt: field.timestamp(postActivity.createdAt),
};

const toActivity = (row: RowOf<typeof activityFields>): Activity => ({
  ...row,
  action: row.action as ActivityAction,
});

/** A post's activity, newest first; another account's post is as unknown as a missing one. */
export async function listPostActivity(opts: {
  db: Db;
  principal: Principal;
  id: string;
  page: PageRequest;
}) {
  const { db, principal, id, page } = opts;
  const post = await findPost(db, principal, id);
  const where = eq(postActivity.postId, post.id);
  return readTablePage({
    db,
    request: page,
    order: {
      table: postActivity,
      id: postActivity.id,
      by: postActivity.seq,
      direction: 'desc',
      scope: where,
    },
    where,
    fields: activityFields,
    items: (rows) => rows.map(toActivity),
  });
}

/**
 * What an entry of a change of status tells (docs/workflow.md): the time a post is now
 * scheduled at, or the time that unscheduling or withdrawing it dropped, so that the activity
 * still says when it would have gone out.
 */
export function statusDetails(
  action: ActivityEntry['action'] | null,
  before: PostRow,
  after: PostRow,
) {
  const at =
    action === 'scheduled'
      ? after.scheduledAt
      : action === 'unscheduled' || action === 'withdrawn'
        ? before.scheduledAt
        : null;
  return at ? { scheduledAt: at.toISOString() } : {};
}
