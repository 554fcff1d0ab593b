import {
  and,
  asc,
  count,
  desc,
  eq,
  readRows,
  sql,
  type Db,
  type Field,
  type Fields,
  type PgColumn,
  type PgTable,
  type RowOf,
  type SQL,
  type SQLWrapper,
} from '@chorus/db';
import { AppError } from './errors';

/** Where a page starts: a page number (1-based), or after the item `startingAfter` names. */
export interface PageRequest {
  page: number;
  limit: number;
  /** An item id of the list: the page is the `limit` items after it. Not with `page` > 1. */
  startingAfter?: string;
}

/** One page of any list, before an endpoint writes it in its shape. */
export interface Page<T> {
  items: T[];
  /** Items across every page. */
  total: number;
  page: number;
  limit: number;
  /** `startingAfter` for the page after this one (its last item's id); null on the last page. */
  nextCursor: string | null;
}

/** How a list is ordered: by one column, then by id in the same direction. */
export interface ListOrder {
  table: PgTable;
  id: PgColumn;
  by: PgColumn;
  direction: 'asc' | 'desc';
  /** `by` may be null (ascending only: nulls come last, as PostgreSQL sorts them). */
  nullable?: boolean;
  /** What makes a row one of the list's (its account, its webhook), against `table` itself. */
  scope: SQL | undefined;
}

/** What the list's query adds for the page: its condition, order, limit and offset. */
interface PageWindow {
  after: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/**
 * The cursor row's place in the order, as a subquery run once (an InitPlan): the list's own
 * table in a subquery shadows the outer one, so its columns here name the cursor's row. An id
 * outside the list's scope finds no row, and a comparison with nothing matches nothing.
 */
export function afterCursor(order: ListOrder, cursor: string | SQLWrapper): SQL {
  const { table, id, by, direction, scope } = order;
  const cursorRow = and(eq(id, cursor), scope);
  const place = sql`(select ${by}, ${id} from ${table} where ${cursorRow})`;
  const beyond = direction === 'desc' ? sql`<` : sql`>`;
  const after = sql`(${by}, ${id}) ${beyond} ${place}`;
  if (!order.nullable) return after;
  if (direction === 'desc') throw new Error('A nullable order column is supported ascending.');
  // Nulls sort last: after a row with a value come the larger values, then every null; after a
  // null only the nulls with a larger id.
  const cursorBy = sql`(select ${by} from ${table} where ${cursorRow})`;
  const cursorId = sql`(select ${id} from ${table} where ${cursorRow})`;
  return sql`(case when ${cursorBy} is null then (${by} is null and ${id} > ${cursorId}) else (${after} or ${by} is null) end)`;
}

/**
 * A cursor that is not an item of the list (unknown, deleted, or another account's: the same
 * answer) is a parameter that fails validation: the list exists, the position asked does not.
 */
const unknownCursor = () =>
  new AppError('validation_error', 'startingAfter is not an item of this list.', {
    issues: [{ path: 'startingAfter', message: 'No item of this list has this id.' }],
  });

/** A cursor names the position itself: a page number beside it would name a second one. */
export function assertOnePosition(request: PageRequest) {
  if (request.startingAfter !== undefined && request.page !== 1) {
    throw new AppError('validation_error', 'Send either page or startingAfter, not both.', {
      issues: [{ path: 'page', message: 'Send either page or startingAfter, not both.' }],
    });
  }
}

/**
 * The rows a page reads: one more than asked (whether it comes says whether a next page
 * exists), from its page number's offset, or from the start after a cursor.
 */
export function pageSpan(request: PageRequest) {
  assertOnePosition(request);
  const byCursor = request.startingAfter !== undefined;
  return { limit: request.limit + 1, offset: byCursor ? 0 : (request.page - 1) * request.limit };
}

/** The list's order by its column, then by id in the same direction. */
export function orderBy(order: ListOrder): SQL[] {
  const sort = order.direction === 'desc' ? desc : asc;
  return [sort(order.by), sort(order.id)];
}

function pageWindow(request: PageRequest, order: ListOrder): PageWindow {
  const cursor = request.startingAfter;
  return {
    ...pageSpan(request),
    after: cursor === undefined ? undefined : afterCursor(order, cursor),
    orderBy: orderBy(order),
  };
}

/** Whether `cursor` names an item of the list (its id, in its scope). */
export const cursorIn = (db: Db, order: ListOrder) => async (cursor: string) => {
  const [known] = await db
    .select({ id: order.id })
    .from(order.table)
    .where(and(eq(order.id, cursor), order.scope))
    .limit(1);
  return known !== undefined;
};

/**
 * A page from the rows `pageSpan` read, with the list's total and the next cursor. No row after
 * a cursor asks `cursorKnown` whether the cursor is an item of the list at all.
 */
export async function pageFrom<R, T>(opts: {
  request: PageRequest;
  rows: R[];
  idOf: (row: R) => string;
  cursorKnown: (cursor: string) => Promise<boolean>;
  /** The error for a cursor that is not (the list's own wording); `unknownCursor` by default. */
  unknown?: () => AppError;
  /** Given the rows shown, which may carry it. */
  total: (shown: R[]) => number | Promise<number>;
  items: (rows: R[]) => T[] | Promise<T[]>;
}): Promise<Page<T>> {
  const { request, rows } = opts;
  const cursor = request.startingAfter;
  if (cursor !== undefined && rows.length === 0 && !(await opts.cursorKnown(cursor))) {
    throw (opts.unknown ?? unknownCursor)();
  }
  const shown = rows.slice(0, request.limit);
  const last = shown.at(-1);
  return {
    items: await opts.items(shown),
    total: await opts.total(shown),
    page: request.page,
    limit: request.limit,
    nextCursor: rows.length > request.limit && last !== undefined ? opts.idOf(last) : null,
  };
}

export const pageCount = (total: number, limit: number) => Math.ceil(total / limit);

/**
 * One page of a list read from one table, by page number (an offset) or after a cursor (a
 * place in the list's order, at the same cost however deep), with the list's total and the next
 * cursor. `where` selects the list's rows (`order.scope` and the filters); `fields` are what
 * each row reads, by the row reader (a subquery for another table's column); the total is
 * counted unless `total` answers it more cheaply (kept counts,
 * docs/posts-and-scheduler.md#the-lists-total).
 */
export async function readTablePage<F extends Fields & { id: Field<string> }, I>(opts: {
  db: Db;
  request: PageRequest;
  order: ListOrder;
  where: SQL | undefined;
  fields: F;
  total?: () => Promise<number>;
  items: (rows: RowOf<F>[]) => I[] | Promise<I[]>;
}): Promise<Page<I>> {
  const { db, request, order, where } = opts;
  const window = pageWindow(request, order);
  // Typed as any fields' selection: with `F`'s own (a type parameter), drizzle's builder types
  // lose the query's methods.
  const rows = await readRows(db, opts.fields, (db, select: Record<string, SQL.Aliased>) =>
    db
      .select(select)
      .from(order.table)
      .where(and(where, window.after))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
  );
  return pageFrom({
    request,
    rows,
    // `F`'s id is text (its bound), which TypeScript does not see through `RowOf` of a parameter.
    idOf: (row) => (row as RowOf<{ id: Field<string> }>).id,
    cursorKnown: cursorIn(db, order),
    total:
      opts.total ??
      (async () =>
        (await db.select({ total: count() }).from(order.table).where(where))[0]?.total ?? 0),
    items: opts.items,
  });
}
