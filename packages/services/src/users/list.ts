import type { Principal } from '@chorus/auth';
import {
  alias,
  and,
  count,
  desc,
  eq,
  field,
  ilike,
  or,
  preparedPerDb,
  preparedPerShape,
  rowStatement,
  sql,
  users,
  type Db,
  type RowReader,
  type RowStatement,
  type SQL,
} from '@chorus/db';
import type { Role, User, UserSummary } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { pageFrom, pageSpan, type Page, type PageRequest } from '../shared/pagination';
import { userTotal, userTotalQuery } from './counts';

/** Which parts of the list a query has: every combination is one prepared statement. */
interface Shape {
  byRole: boolean;
  search: boolean;
  /**
   * Where the page starts: the top of the list (the first page: no place to find), a page
   * number's offset, or after the user of `cursor` (keyset).
   */
  from: 'top' | 'offset' | 'cursor';
  /** Each user in full (last sign-in and settings), as the dashboard's users page shows them. */
  full: boolean;
}

const ph = sql.placeholder;
const cursorUser = alias(users, 'cursor_user');
const boundary = alias(users, 'boundary');
/** The users table, or an alias of it in a subquery. */
type UsersIn = typeof users | typeof boundary;

/** The users the list shows. */
function shown(t: UsersIn, shape: Shape) {
  const pattern = ph('pattern');
  return and(
    eq(t.accountId, ph('accountId')),
    shape.byRole ? eq(t.role, ph('role')) : undefined,
    shape.search ? or(ilike(t.name, pattern), ilike(t.email, pattern)) : undefined,
  );
}

const newestFirst = (t: UsersIn) => [desc(t.createdAt), desc(t.id)];

/** The cursor user's place in the order; none (no row compares) when not the account's. */
const cursorPlace = (db: RowReader) =>
  db
    .select({ createdAt: cursorUser.createdAt, id: cursorUser.id })
    .from(cursorUser)
    .where(and(eq(cursorUser.id, ph('cursor')), eq(cursorUser.accountId, ph('accountId'))));

/** The place of the user `offset` places down the list; none past its end. */
const offsetPlace = (db: RowReader, shape: Shape) =>
  db
    .select({ createdAt: boundary.createdAt, id: boundary.id })
    .from(boundary)
    .where(shown(boundary, shape))
    .orderBy(...newestFirst(boundary))
    .limit(1)
    .offset(ph('offset'));

const summaryFields = {
  id: field.column(users.id),
  name: field.column(users.name),
  email: field.column(users.email),
  role: field.column(users.role),
  createdAt: field.timestamp(users.createdAt),
};

/** Each user in full: the summary and the last sign-in and settings. */
const fullFields = {
  ...summaryFields,
  lastLogin: field.timestamp(users.lastLoginAt),
  notifications: field.column(users.notifications),
  twoFactorAuth: field.column(users.twoFactorEnabled),
};

/**
 * The list's total beside each row (one round trip for both), from the per-role counts; none
 * in a text search, whose total is counted apart.
 */
const totalField = (shape: Shape) =>
  field.sql((db) =>
    shape.search
      ? sql<number | null>`null::int`
      : sql<number | null>`(${userTotalQuery(db, shape.byRole)})::int`,
  );

/**
 * One page, newest first (docs/api.md), read from a place in the order onwards through the
 * account's index in that order (`users_account_created_idx`, or `users_account_role_created_idx`
 * with a role): after a cursor, it reads only the rows it answers, however deep. A page number
 * first finds its place `offset` entries down that index, in the index alone (no table rows
 * for the entries skipped); the first page, the one most asked for, starts at the top and
 * finds no place (a third of the statement's time went to finding it). A place rather than
 * `id in (… limit offset)`: with the limit a parameter, PostgreSQL's generic plan for that
 * guesses a tenth of the table and scans it all.
 * Rows are read by the row reader (`rowStatement`): for a page of 50 users, drizzle's mapping
 * cost more than the query; PostgreSQL building the page as one JSON value cost it twice the
 * query, and `to_char` on each row a third more.
 */
function pageQuery(shape: Shape) {
  return (db: RowReader, select: Record<string, SQL.Aliased>) => {
    const place = sql`(${users.createdAt}, ${users.id})`;
    const from =
      shape.from === 'cursor'
        ? sql`${place} < (${cursorPlace(db)})`
        : shape.from === 'offset'
          ? sql`${place} <= (${offsetPlace(db, shape)})`
          : undefined;
    return db
      .select(select)
      .from(users)
      .where(and(shown(users, shape), from))
      .orderBy(...newestFirst(users))
      .limit(ph('limit'));
  };
}

const pageName = (shape: Shape) =>
  [
    'users_page',
    shape.byRole && 'role',
    shape.search && 'q',
    { top: 'top', cursor: 'after', offset: 'offset' }[shape.from],
    shape.full && 'full',
  ]
    .filter(Boolean)
    .join('_');

// Read on every call of GET /api/users: each shape prepared once per database.
const summaryPage = preparedPerShape(pageName, (shape: Shape, name) =>
  rowStatement({
    name,
    fields: { ...summaryFields, total: totalField(shape) },
    query: pageQuery(shape),
  }),
);
const fullPage = preparedPerShape(pageName, (shape: Shape, name) =>
  rowStatement({
    name,
    fields: { ...fullFields, total: totalField(shape) },
    query: pageQuery(shape),
  }),
);

/** The total of a text search: counted, so it costs a pass over the account's users. */
const searchTotal = (byRole: boolean) =>
  preparedPerDb((db) =>
    db
      .select({ total: count() })
      .from(users)
      .where(shown(users, { byRole, search: true, from: 'top', full: false }))
      .prepare(byRole ? 'users_total_role_q' : 'users_total_q'),
  );
const searchTotals = { all: searchTotal(false), byRole: searchTotal(true) };

const cursorExists = preparedPerDb((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ph('cursor')), eq(users.accountId, ph('accountId'))))
    .prepare('users_cursor_exists'),
);

/**
 * A cursor that is not a user of the account (unknown, deleted, or another account's: the
 * same answer, docs/security.md) is a parameter that fails validation: the list exists, the
 * position asked for does not.
 */
const unknownCursor = () =>
  new AppError('validation_error', 'startingAfter is not a user of this account.', {
    issues: [{ path: 'startingAfter', message: 'No user of this account has this id.' }],
  });

/** `%`, `_` and `\\` in the text match themselves (backslash is ILIKE's escape). */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type ListOptions = {
  db: Db;
  principal: Principal;
  page: PageRequest;
  role?: Role;
  /** Text the name or email contains, any case; `%`, `_` and `\\` match themselves. */
  q?: string;
  /** A user id: the page is the `limit` users after this one, in the list's order. */
  startingAfter?: string;
};

/** The account's users, newest first: GET /api/users. */
export function listUsers(opts: ListOptions): Promise<Page<UserSummary>> {
  return readUsers(opts, (db, shape) => summaryPage(db, { ...shape, full: false }), summary);
}

/**
 * The same page with each user in full (last sign-in and settings), in the same query: the
 * dashboard's users page shows and edits them, and so reads no user again.
 */
export function listUsersInFull(opts: ListOptions): Promise<Page<User>> {
  return readUsers(
    opts,
    (db, shape) => fullPage(db, { ...shape, full: true }),
    (row): User => ({
      ...summary(row),
      lastLogin: row.lastLogin,
      settings: { notifications: row.notifications, twoFactorAuth: row.twoFactorAuth },
    }),
  );
}

/** A summary without the total its row carries. */
const summary = ({ id, name, email, role, createdAt }: UserSummary): UserSummary => ({
  id,
  name,
  email,
  role,
  createdAt,
});

async function readUsers<R extends UserSummary & { total: number | null }, T>(
  opts: ListOptions,
  statement: (db: RowReader, shape: Omit<Shape, 'full'>) => RowStatement<R>,
  item: (row: R) => T,
): Promise<Page<T>> {
  const { db, principal, page, role, q, startingAfter } = opts;
  const request = { ...page, startingAfter };
  const accountId = principal.accountId;
  const span = pageSpan(request);
  const from: Shape['from'] =
    startingAfter !== undefined ? 'cursor' : span.offset === 0 ? 'top' : 'offset';
  const shape = { byRole: !!role, search: !!q, from };
  const values = {
    accountId,
    role,
    pattern: q ? containing(q) : undefined,
    cursor: startingAfter,
    ...span,
  };
  return pageFrom({
    request,
    rows: await statement(db, shape).execute(values),
    idOf: (row) => row.id,
    cursorKnown: async () => (await cursorExists(db).execute(values)).length > 0,
    unknown: unknownCursor,
    // A page past the end has no row to carry the total.
    total: async ([first]) =>
      shape.search
        ? ((await searchTotals[role ? 'byRole' : 'all'](db).execute(values))[0]?.total ?? 0)
        : (first?.total ?? (await userTotal({ db, accountId, role }))),
    items: (rows) => rows.map(item),
  });
}
