import type { Principal } from '@chorus/auth';
import {
  and,
  arrayContains,
  count,
  eq,
  gte,
  isNotNull,
  isNull,
  lte,
  or,
  postCounts,
  postTargets,
  posts,
  postTagCounts,
  sql,
  sum,
  type Db,
  type SQL,
} from '@chorus/db';
import type { ListPostsQuery } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { readTablePage, type ListOrder } from '../shared/pagination';
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

/** The list's filters: what the list and the export (docs/settings-and-import-export.md) both select by. */
export type PostFilters = Omit<ListPostsQuery, 'page' | 'limit' | 'sort' | 'startingAfter'>;

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

/**
 * The list's total. Filtered by status and tag alone (or not at all), it is read from the
 * counts the database keeps per status and tag (docs/posts-and-scheduler.md#the-lists-total):
 * one to seven rows, however many posts. Any other filter is counted, over the posts it
 * selects, as the count needs them all.
 */
async function postTotal(
  db: Db,
  principal: Principal,
  filters: PostFilters,
  where: SQL | undefined,
) {
  const { status, tag, ...others } = filters;
  const counted = Object.values(others).every((value) => value === undefined);
  if (!counted) {
    return (await db.select({ total: count() }).from(posts).where(where))[0]?.total ?? 0;
  }
  const kept = tag === undefined ? postCounts : postTagCounts;
  const [row] = await db
    .select({ total: sum(kept.count).mapWith(Number) })
    .from(kept)
    .where(
      and(
        eq(kept.accountId, principal.accountId),
        status === undefined ? undefined : eq(kept.status, status),
        tag === undefined ? undefined : eq(postTagCounts.tag, tag),
      ),
    );
  return row?.total ?? 0;
}

/** The account's posts, newest first or by `scheduledAt`, filtered as the posts list rules say. */
export async function listPosts(opts: { db: Db; principal: Principal; query: ListPostsQuery }) {
  const { db, principal, query } = opts;
  const { page, limit, startingAfter, sort, ...filters } = query;
  const where = postFilters(principal, filters);
  const scope = eq(posts.accountId, principal.accountId);
  const order: ListOrder & { table: typeof posts } =
    sort === 'scheduledAt'
      ? {
          table: posts,
          id: posts.id,
          by: posts.scheduledAt,
          direction: 'asc',
          nullable: true,
          scope,
        }
      : { table: posts, id: posts.id, by: posts.createdAt, direction: 'desc', scope };
  return readTablePage({
    db,
    request: { page, limit, startingAfter },
    order,
    where,
    total: () => postTotal(db, principal, filters, where),
    items: (rows) => toPosts(db, rows),
  });
}
