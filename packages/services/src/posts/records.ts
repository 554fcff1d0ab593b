import type { Principal } from '@chorus/auth';
import {
  and,
  asc,
  asRead,
  eq,
  inArray,
  postMedia,
  posts,
  postTargets,
  rowStatement,
  sql,
  type Db,
  type RowReader,
} from '@chorus/db';
import type { Post, Target } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { targetFields, type PostFields, type TargetFields } from './fields';
import { seriesOf, timeZonesOf } from './recurrence';

export type PostRow = typeof posts.$inferSelect;
export type TargetRow = typeof postTargets.$inferSelect;

/** A target as the API returns it (docs/publishing.md). */
export const toTarget = (row: TargetFields): Target => ({
  id: row.id,
  channelId: row.channelId,
  content: row.content,
  mediaIds: row.mediaIds,
  firstComment: row.firstComment,
  thread: row.thread,
  status: row.status,
  externalId: row.externalId,
  url: row.url,
  publishedAt: row.publishedAt,
  attempts: row.attempts,
  error: row.error,
});
/** A transaction or the database: whatever reads with `select` (and row statements). */
export type Reader = RowReader;

/** A post as the API returns it (docs/posts-and-scheduler.md and docs/publishing.md), with its media ids and targets in order. */
export const toPost = (
  row: PostFields,
  mediaIds: string[],
  targets: Target[] = [],
  nextOccurrences: string[] = [],
): Post => ({
  id: row.id,
  title: row.title,
  content: row.content,
  status: row.status,
  tags: row.tags,
  mediaIds,
  scheduledAt: row.scheduledAt,
  publishedAt: row.publishedAt,
  authorId: row.authorId,
  targets,
  rejection:
    row.rejectionComment !== null && row.rejectedAt
      ? { comment: row.rejectionComment, rejectedBy: row.rejectedBy, rejectedAt: row.rejectedAt }
      : null,
  recurrence: row.recurrence,
  recurrenceOf: row.recurrenceOf,
  nextOccurrences,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
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

const targetsStatement = rowStatement({
  name: 'post_targets_of',
  fields: targetFields,
  query: (db, select) =>
    db
      .select(select)
      .from(postTargets)
      .where(sql`${postTargets.postId} = any(${sql.placeholder('postIds')}::text[])`)
      .orderBy(asc(postTargets.postId), asc(postTargets.position)),
});

/** The targets of each post, in position order, in one query. */
export async function targetsOf(db: Reader, postIds: string[]) {
  const byPost = new Map<string, Target[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  for (const row of await targetsStatement(db).execute({ postIds })) {
    byPost.get(row.postId)?.push(toTarget(row));
  }
  return byPost;
}

/** How many of a series' coming occurrences a post tells. */
const NEXT_OCCURRENCES = 5;

/** The next occurrences of each active series among `rows`, in its account's time zone. */
async function occurrencesOf(db: Reader, rows: PostFields[]) {
  const series = rows.filter((row) => row.nextOccurrenceAt && row.recurrence && row.scheduledAt);
  if (series.length === 0) return new Map<string, string[]>();
  const zones = await timeZonesOf(
    db,
    series.map((row) => row.accountId),
  );
  const byPost = new Map<string, string[]>();
  for (const row of series) {
    const zone = zones.get(row.accountId) ?? 'UTC';
    const rule = seriesOf(row.recurrence ?? '', new Date(row.scheduledAt ?? row.createdAt), zone);
    const from = new Date(row.nextOccurrenceAt ?? row.createdAt);
    byPost.set(
      row.id,
      rule.upcoming(from, NEXT_OCCURRENCES).map((at) => at.toISOString()),
    );
  }
  return byPost;
}

/**
 * Posts from their columns, their media ids and targets (`targets` reads those of the posts
 * that have any), with a series' next occurrences.
 */
export async function postsFrom<R extends PostFields>(
  db: Reader,
  rows: R[],
  mediaIds: (row: R) => string[],
  targets: Map<string, Target[]>,
) {
  const occurrences = await occurrencesOf(db, rows);
  return rows.map((row) =>
    toPost(row, mediaIds(row), targets.get(row.id) ?? [], occurrences.get(row.id)),
  );
}

/** Rows drizzle read to API posts, with their media, targets and a series' next occurrences. */
export async function toPosts(db: Reader, rows: PostRow[]) {
  const ids = rows.map((row) => row.id);
  // One after the other: inside a transaction both would queue on its one connection anyway.
  const media = await mediaIdsOf(db, ids);
  const targets = await targetsOf(db, ids);
  return postsFrom(db, rows.map(asRead), (row) => media.get(row.id) ?? [], targets);
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
