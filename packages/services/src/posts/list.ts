import type { Principal } from '@chorus/auth';
import {
  and,
  eq,
  field,
  postCounts,
  postMedia,
  postTargets,
  posts,
  postTagCounts,
  preparedPerShape,
  qualified,
  rowStatement,
  sql,
  type Db,
  type SQL,
  type SQLWrapper,
} from '@chorus/db';
import type { ListPostsQuery, Post } from '@chorus/validators';
import {
  afterCursor,
  cursorIn,
  orderBy,
  pageFrom,
  pageSpan,
  type ListOrder,
  type Page,
} from '../shared/pagination';
import { postFields } from './fields';
import { filterCondition, type Bind, type PostFilters } from './filters';
import { postsFrom, targetsOf } from './records';

/**
 * The list's total, as a subquery. Filtered by status and tag alone (or not at all), it is
 * read from the counts the database keeps per status and tag
 * (docs/posts-and-scheduler.md#the-lists-total): one to seven rows, however many posts. Any
 * other filter is counted, over the posts it selects, as the count needs them all.
 */
function totalOf(
  accountId: string,
  filters: PostFilters,
  where: SQL | undefined,
  bind: Bind,
): SQL<number> {
  const { status, tag, ...others } = filters;
  const counted = Object.values(others).some((value) => value !== undefined);
  // The posts table inside the subquery shadows the page's: `where` names its rows.
  if (counted) return sql<number>`(select count(*)::int from ${posts} where ${where})`;
  const kept = tag === undefined ? postCounts : postTagCounts;
  const condition = and(
    eq(kept.accountId, bind('accountId', accountId)),
    status === undefined ? undefined : eq(kept.status, bind('status', status)),
    tag === undefined ? undefined : eq(postTagCounts.tag, bind('tag', tag)),
  );
  return sql<number>`(select coalesce(sum(${kept.count}), 0)::int from ${kept} where ${condition})`;
}

/** What one prepared statement of the list serves: the filters given, the order, the paging. */
interface Shape {
  name: string;
  where: SQL | undefined;
  total: SQL<number>;
  order: ListOrder;
  cursor: boolean;
}

/** The page's post id, as the subqueries of other tables name it. */
const pagePostId = qualified(posts.id);

/**
 * The page and, beside each post, its media ids, whether it has targets, and the list's
 * total: one round trip for what took four. A post's targets are read after, for the posts
 * that have any.
 */
const pageStatement = preparedPerShape(
  (shape: Shape) => shape.name,
  (shape, name) =>
    rowStatement({
      name,
      fields: {
        ...postFields,
        mediaIds: field.sql(
          sql<
            string[]
          >`array(select ${postMedia.mediaId} from ${postMedia} where ${postMedia.postId} = ${pagePostId} order by ${postMedia.position})`,
        ),
        hasTargets: field.sql(
          sql<boolean>`exists (select 1 from ${postTargets} where ${postTargets.postId} = ${pagePostId})`,
        ),
        total: field.sql(shape.total),
      },
      query: (db, select) =>
        db
          .select(select)
          .from(posts)
          .where(
            and(
              shape.where,
              shape.cursor ? afterCursor(shape.order, sql.placeholder('cursor')) : undefined,
            ),
          )
          .orderBy(...orderBy(shape.order))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset')),
    }),
);

/** The total alone, for a page with no row to carry it. */
const totalStatement = preparedPerShape(
  (shape: Shape) => shape.name,
  (shape, name) =>
    rowStatement({
      name: `${name}_total`,
      fields: { total: field.sql(shape.total) },
      query: (db, select) => db.select(select).from(sql`(select 1) as one`),
    }),
);

/** The list's order: newest first, or by `scheduledAt` (posts without one last). */
function orderOf(sort: ListPostsQuery['sort'], accountId: string | SQLWrapper): ListOrder {
  const scope = eq(posts.accountId, accountId);
  return sort === 'scheduledAt'
    ? { table: posts, id: posts.id, by: posts.scheduledAt, direction: 'asc', nullable: true, scope }
    : { table: posts, id: posts.id, by: posts.createdAt, direction: 'desc', scope };
}

/** The account's posts, newest first or by `scheduledAt`, filtered as the posts list rules say. */
export async function listPosts(opts: {
  db: Db;
  principal: Principal;
  query: ListPostsQuery;
}): Promise<Page<Post>> {
  const { db, principal, query } = opts;
  const { page, limit, startingAfter, sort, ...filters } = query;
  const request = { page, limit, startingAfter };
  const accountId = principal.accountId;
  // The conditions are built on each call, for the values they bind and the shape they have;
  // the statement of a shape is built and prepared once.
  const values: Record<string, unknown> = {};
  const bind: Bind = (name, value) => {
    // Drizzle passes a placeholder's value to the driver as it is, not through the column's
    // encoder: a time goes as the ISO text a timestamptz reads.
    values[name] = value instanceof Date ? value.toISOString() : value;
    return sql.placeholder(name);
  };
  const where = filterCondition(accountId, filters, bind);
  const total = totalOf(accountId, filters, where, bind);
  const cursor = startingAfter !== undefined;
  const name = [
    'posts_page',
    sort,
    cursor ? 'after' : 'offset',
    ...Object.keys(values),
    filters.recurring === undefined ? '' : `recurring_${filters.recurring}`,
  ].join('_');
  const order = orderOf(sort, sql.placeholder('accountId'));
  const shape = { name, where, total, order, cursor };
  const rows = await pageStatement(db, shape).execute({
    ...values,
    ...pageSpan(request),
    cursor: startingAfter,
  });
  return pageFrom({
    request,
    rows,
    idOf: (row) => row.id,
    cursorKnown: cursorIn(db, orderOf(sort, accountId)),
    total: async ([first]) =>
      first?.total ?? (await totalStatement(db, shape).execute(values))[0]?.total ?? 0,
    items: async (shown) => {
      const targets = await targetsOf(
        db,
        shown.filter((row) => row.hasTargets).map((row) => row.id),
      );
      return postsFrom(db, shown, (row) => row.mediaIds, targets);
    },
  });
}
