import type { Principal } from '@chorus/auth';
import {
  and,
  arrayContains,
  eq,
  gte,
  isNotNull,
  isNull,
  lte,
  or,
  posts,
  postTargets,
  sql,
  type Placeholder,
} from '@chorus/db';
import type { ListPostsQuery } from '@chorus/validators';
import { AppError } from '../shared/errors';

/** `q` is plain text: LIKE's wildcards and its escape character match themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * How a filter's value enters the query: as it is (a parameter of a query built once), or as a
 * named placeholder of a prepared statement, recording the value to fill it with.
 */
export type Bind = <T>(name: string, value: T) => T | Placeholder;
const asParameter: Bind = (_name, value) => value;

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
function rangeConditions(query: PostFilters, bind: Bind) {
  const at = (name: BoundName) => (query[name] ? new Date(query[name]) : undefined);
  const conditions = [];
  const reversed = [];
  for (const range of RANGES) {
    const from = at(range.from);
    const to = at(range.to);
    if (from && to && from > to) reversed.push(range);
    if (from) conditions.push(gte(range.column, bind(range.from, from)));
    if (to) conditions.push(lte(range.column, bind(range.to, to)));
  }
  if (reversed.length > 0) {
    const names = reversed.map((r) => `\`${r.from}\` is after \`${r.to}\``).join('; ');
    throw new AppError('validation_error', `${names}.`, {
      issues: reversed.map((r) => ({
        path: r.from,
        message: `\`${r.from}\` must not be after \`${r.to}\`.`,
      })),
    });
  }
  return conditions;
}

/** The list's filters: what the list and the export (docs/settings-and-import-export.md) both select by. */
export type PostFilters = Omit<ListPostsQuery, 'page' | 'limit' | 'sort' | 'startingAfter'>;

/** The condition of the account's posts that match the filters (the one place for them). */
export function filterCondition(accountId: string, query: PostFilters, bind: Bind) {
  const ranges = rangeConditions(query, bind);
  const pattern = query.q === undefined ? undefined : bind('pattern', likePattern(query.q));
  return and(
    eq(posts.accountId, bind('accountId', accountId)),
    query.status ? eq(posts.status, bind('status', query.status)) : undefined,
    query.tag ? arrayContains(posts.tags, bind('tags', [query.tag])) : undefined,
    query.recurring === undefined
      ? undefined
      : (query.recurring ? isNotNull : isNull)(posts.recurrence),
    // The post is the account's already: another account's channel id matches nothing.
    query.channelId
      ? sql`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${posts.id} and ${postTargets.channelId} = ${bind('channelId', query.channelId)})`
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

/** The filters' condition with their values as parameters, for a query built once (the export). */
export const postFilters = (principal: Principal, query: PostFilters) =>
  filterCondition(principal.accountId, query, asParameter);
