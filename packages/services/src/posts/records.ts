import type { Principal } from '@chorus/auth';
import { and, asc, eq, inArray, postMedia, posts, postTargets, type Db } from '@chorus/db';
import type { Post, Target } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { seriesOf, timeZonesOf } from './recurrence';

export type PostRow = typeof posts.$inferSelect;
export type TargetRow = typeof postTargets.$inferSelect;

/** A target as the API returns it (docs/publishing.md); `progress` and the backoff stay inside. */
export const toTarget = (row: TargetRow): Target => ({
  id: row.id,
  channelId: row.channelId,
  content: row.content,
  mediaIds: row.mediaIds,
  firstComment: row.firstComment,
  thread: row.thread,
  status: row.status,
  externalId: row.externalId,
  url: row.url,
  publishedAt: row.publishedAt?.toISOString() ?? null,
  attempts: row.attempts,
  error: row.error,
});
/** A transaction or the database: whatever reads with `select`. */
export type Reader = Pick<Db, 'select'>;

/** A post as the API returns it (docs/posts-and-scheduler.md and docs/publishing.md), with its media ids and targets in order. */
export const toPost = (
  row: PostRow,
  mediaIds: string[],
  targets: Target[] = [],
  nextOccurrences: Date[] = [],
): Post => ({
  id: row.id,
  title: row.title,
  content: row.content,
  status: row.status,
  tags: row.tags,
  mediaIds,
  scheduledAt: row.scheduledAt?.toISOString() ?? null,
  publishedAt: row.publishedAt?.toISOString() ?? null,
  authorId: row.authorId,
  targets,
  rejection:
    row.rejectionComment !== null && row.rejectedAt
      ? {
          comment: row.rejectionComment,
          rejectedBy: row.rejectedBy,
          rejectedAt: row.rejectedAt.toISOString(),
        }
      : null,
  recurrence: row.recurrence,
  recurrenceOf: row.recurrenceOf,
  nextOccurrences: nextOccurrences.map((at) => at.toISOString()),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The media ids of each post, in position order, in one query. */
export async function mediaIdsOf(db: Reader, postIds: string[]) {
  const byPost = new Map<string, string[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const links = await db
    .select({ postId: postMedia.postId, mediaId: postMedia.mediaId })
    .from(postMedia)
    .where(inArray(postMedia.postId, postIds))
    .orderBy(asc(postMedia.postId), asc(postMedia.position));
  for (const link of links) byPost.get(link.postId)?.push(link.mediaId);
  return byPost;
}

/** The targets of each post, in position order, in one query. */
export async function targetsOf(db: Reader, postIds: string[]) {
  const byPost = new Map<string, TargetRow[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = await db
    .select()
    .from(postTargets)
    .where(inArray(postTargets.postId, postIds))
    .orderBy(asc(postTargets.postId), asc(postTargets.position));
  for (const row of rows) byPost.get(row.postId)?.push(row);
  return byPost;
}

/** How many of a series' coming occurrences a post tells. */
const NEXT_OCCURRENCES = 5;

/** The next occurrences of each active series among `rows`, in its account's time zone. */
async function occurrencesOf(db: Reader, rows: PostRow[]) {
  const series = rows.filter((row) => row.nextOccurrenceAt && row.recurrence && row.scheduledAt);
  const zones = await timeZonesOf(
    db,
    series.map((row) => row.accountId),
  );
  const byPost = new Map<string, Date[]>();
  for (const row of series) {
    const zone = zones.get(row.accountId) ?? 'UTC';
    const rule = seriesOf(row.recurrence ?? '', row.scheduledAt ?? row.createdAt, zone);
    byPost.set(row.id, rule.upcoming(row.nextOccurrenceAt ?? row.createdAt, NEXT_OCCURRENCES));
  }
  return byPost;
}

/** Rows to API posts, with their media, targets and a series' next occurrences. */
export async function toPosts(db: Reader, rows: PostRow[]) {
  const ids = rows.map((row) => row.id);
  // One after the other: inside a transaction both would queue on its one connection anyway.
  const media = await mediaIdsOf(db, ids);
  const targets = await targetsOf(db, ids);
  const occurrences = await occurrencesOf(db, rows);
  return rows.map((row) =>
    toPost(
      row,
      media.get(row.id) ?? [],
      (targets.get(row.id) ?? []).map(toTarget),
      occurrences.get(row.id),
    ),
  );
}

export async function toOnePost(db: Reader, row: PostRow) {
  const [post] = await toPosts(db, [row]);
  if (!post) throw new Error('unreachable: one row gives one post');
  return post;
}

/**
 * The account's post with this id; another account's is as unknown as a missing one.
 * `lock` holds the row for the rest of the transaction, so the scheduler (which skips locked
 * rows) cannot publish a post while it is being changed.
 */
export async function findPost(db: Reader, principal: Principal, id: string, lock = false) {
  const query = db
    .select()
    .from(posts)
    .where(and(eq(posts.id, id), eq(posts.accountId, principal.accountId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Post');
  return row;
}

export async function getPost(opts: { db: Db; principal: Principal; id: string }) {
  return toOnePost(opts.db, await findPost(opts.db, opts.principal, opts.id));
}
