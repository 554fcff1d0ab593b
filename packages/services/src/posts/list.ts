import type { Principal } from '@chorus/auth';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gte,
  lte,
  or,
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

/** The account's posts, newest first or by `scheduledAt`, filtered as decisions §10 lists. */
export async function listPosts(opts: { db: Db; principal: Principal; query: ListPostsQuery }) {
  const { db, principal, query } = opts;
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from > to) {
    throw new AppError('validation_error', '`from` is after `to`.', {
      issues: [{ path: 'from', message: 'from must not be after to.' }],
    });
  }
  const pattern = query.q === undefined ? undefined : likePattern(query.q);
  const where = and(
    eq(posts.accountId, principal.accountId),
    query.status ? eq(posts.status, query.status) : undefined,
    query.tag ? arrayContains(posts.tags, [query.tag]) : undefined,
    pattern
      ? or(
          sql`${posts.title} ilike ${pattern} escape '\\'`,
          sql`${posts.content} ilike ${pattern} escape '\\'`,
        )
      : undefined,
    from ? gte(posts.createdAt, from) : undefined,
    to ? lte(posts.createdAt, to) : undefined,
  );
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
