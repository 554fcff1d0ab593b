import type { Principal } from '@chorus/auth';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gte,
  isNotNull,
  isNull,
  lte,
  or,
  postTargets,
  posts,
  sql,
  type Db,
} from '@chorus/db';
import type { ListPostsQuery } from '@chorus/validators';
import { AppError } from '../errors';
import { pageOf, pageOffset } from '../pagination';
import { toPosts } from './records';

/** `q` is plain text: LIKE's wildcards and its escape character match themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Each range of the query, inclusive at both ends, and the column it bounds. */
const RANGES = [
  { from: 'from', to: 'to', column: posts.createdAt },
  { from: 'scheduledFrom', to: 'scheduledTo', column: posts.scheduledAt },
  { from: 'publishedFrom', to: 'publishedTo', column: posts.publishedAt },
] as const;
type BoundName = (typeof RANGES)[number]['from' | 'to'];

/**
 * The conditions of the ranges given. A bound compares with the column, so a post whose
 * column is null never matches it. A start after its end is refused, named, not answered empty.
 */
function rangeConditions(query: PostFilters) {
  const at = (name: BoundName) => (query[name] ? new Date(query[name]) : undefined);
  const conditions = [];
  const reversed = [];
  for (const range of RANGES) {
    const from = at(range.from);
    const to = at(range.to);
    if (from && to && from > to) reversed.push(range);
    if (from) conditions.push(gte(range.column, from));
    if (to) conditions.push(lte(range.column, to));
  }
  if (reversed.length > 0) {
    const names = reversed.map((r) => `\`${r.from}\` is after \`${r.to}\``).join('; ');
    throw new AppError('validation_error', `${names}.`, {
      issues: reversed.map((r) => ({
        path: r.from,
        message: `${r.from} must not be after ${r.to}.`,
      })),
    });
  }
  return conditions;
}

/** The list's filters: what the list and the export (decisions §19) both select by. */
export type PostFilters = Omit<ListPostsQuery, 'page' | 'limit' | 'sort'>;

/** The condition of the account's posts that match the filters (the one place for them). */
export function postFilters(principal: Principal, query: PostFilters) {
  const ranges = rangeConditions(query);
  const pattern = query.q === undefined ? undefined : likePattern(query.q);
  return and(
    eq(posts.accountId, principal.accountId),
    query.status ? eq(posts.status, query.status) : undefined,
    query.tag ? arrayContains(posts.tags, [query.tag]) : undefined,
    query.recurring === undefined
      ? undefined
      : (query.recurring ? isNotNull : isNull)(posts.recurrence),
    // The post is the account's already: another account's channel id matches nothing.
    query.channelId
      ? sql`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${posts.id} and ${postTargets.channelId} = ${query.channelId})`
      : undefined,
    pattern
      ? or(
          sql`${posts.title} ilike ${pattern} escape '\\'`,
          sql`${posts.content} ilike ${pattern} escape '\\'`,
        )
      : undefined,
    ...ranges,
  );
}

/** The account's posts, newest first or by `scheduledAt`, filtered as decisions §10 lists. */
export async function listPosts(opts: { db: Db; principal: Principal; query: ListPostsQuery }) {
  const { db, principal, query } = opts;
  const where = postFilters(principal, query);
  const page = { page: query.page, limit: query.limit };
  const rows = await db
    .select()
    .from(posts)
    .where(where)
    .orderBy(
      ...(query.sort === 'scheduledAt'
        ? [asc(posts.scheduledAt), asc(posts.id)]
        : [desc(posts.createdAt), desc(posts.id)]),
    )
    .limit(page.limit)
    .offset(pageOffset(page));
  const [totals] = await db.select({ total: count() }).from(posts).where(where);
  return pageOf(await toPosts(db, rows), totals?.total ?? 0, page);
}
