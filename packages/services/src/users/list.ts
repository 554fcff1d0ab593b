import type { Principal } from '@chorus/auth';
import {
  alias,
  and,
  count,
  desc,
  driverRows,
  eq,
  ilike,
  isoFromUtc,
  or,
  preparedPerDb,
  sql,
  users,
  utcText,
  type Db,
} from '@chorus/db';
import type { Role, User, UserSummary } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { pageCount, type PageRequest } from '../shared/pagination';
import { userTotal, userTotalQuery } from './counts';

/** Which parts of the list a query has: every combination is one prepared statement. */
interface Shape {
  byRole: boolean;
  search: boolean;
  /** Keyset (after the user of `cursor`) rather than a page number's offset. */
  cursor: boolean;
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
const cursorPlace = (db: Db) =>
  db
    .select({ createdAt: cursorUser.createdAt, id: cursorUser.id })
    .from(cursorUser)
    .where(and(eq(cursorUser.id, ph('cursor')), eq(cursorUser.accountId, ph('accountId'))));

/** The place of the user `offset` places down the list; none past its end. */
const offsetPlace = (db: Db, shape: Shape) =>
  db
    .select({ createdAt: boundary.createdAt, id: boundary.id })
    .from(boundary)
    .where(shown(boundary, shape))
    .orderBy(...newestFirst(boundary))
    .limit(1)
    .offset(ph('offset'));

/**
 * One page, newest first (docs/api.md), read from a place in the order onwards through the
 * account's index in that order (`users_account_created_idx`, or `users_account_role_created_idx`
 * with a role): after a cursor, it reads only the rows it answers, however deep. A page number
 * first finds its place `offset` entries down that index, in the index alone (no table rows
 * for the entries skipped). A place rather than `id in (… limit offset)`: with the limit a
 * parameter, PostgreSQL's generic plan for that guesses a tenth of the table and scans it all.
 *
 * Each row is a user summary's fields, `createdAt` as UTC text (`isoFromUtc` makes it an ISO
 * date), with the list's total from the per-role counts beside it (one round trip for both),
 * except in a text search, whose total is counted apart. The rows are read as the driver gives
 * them (`driverRows`), not mapped field by field: for a page of 50 users, drizzle's mapping cost
 * more than the query; PostgreSQL building the page as one JSON value cost it twice the query,
 * and `to_char` on each row a third more.
 */
function buildPage(db: Db, shape: Shape, name: string) {
  const place = sql`(${users.createdAt}, ${users.id})`;
  const from = shape.cursor
    ? sql`${place} < (${cursorPlace(db)})`
    : sql`${place} <= (${offsetPlace(db, shape)})`;
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      createdAt: utcText(users.createdAt).as('createdAt'),
      ...(shape.full && {
        lastLogin: utcText(users.lastLoginAt).as('lastLogin'),
        notifications: users.notifications,
        twoFactorAuth: users.twoFactorEnabled,
      }),
      total: shape.search
        ? sql`null`.as('total')
        : sql`(${userTotalQuery(db, shape.byRole)})::int`.as('total'),
    })
    .from(users)
    .where(and(shown(users, shape), from))
    .orderBy(...newestFirst(users))
    .limit(ph('limit'))
    .prepare(name);
}

/** A row of the page as the driver reads it (see buildPage); the rest of a user when full. */
type PageRow = UserSummary & {
  total: number | null;
  lastLogin?: string | null;
  notifications?: boolean;
  twoFactorAuth?: boolean;
};

type PageStatement = ReturnType<typeof buildPage>;
const pageStatements = new Map<string, (db: Db) => PageStatement>();

/** The prepared statement of a shape (the list is read on every call of GET /api/users). */
function pageStatement(db: Db, shape: Shape) {
  const name = [
    'users_page',
    shape.byRole && 'role',
    shape.search && 'q',
    shape.cursor ? 'after' : 'offset',
    shape.full && 'full',
  ]
    .filter(Boolean)
    .join('_');
  let statement = pageStatements.get(name);
  if (!statement) {
    statement = preparedPerDb((database) => buildPage(database, shape, name));
    pageStatements.set(name, statement);
  }
  return statement(db);
}

/** The total of a text search: counted, so it costs a pass over the account's users. */
const searchTotal = (byRole: boolean) =>
  preparedPerDb((db) =>
    db
      .select({ total: count() })
      .from(users)
      .where(shown(users, { byRole, search: true, cursor: false, full: false }))
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
export async function listUsers(opts: ListOptions) {
  const { rows, ...page } = await readPage(opts, false);
  return { data: rows.map(toSummary), ...page };
}

/**
 * The same page with each user in full (last sign-in and settings), in the same query: the
 * dashboard's users page shows and edits them, and so reads no user again.
 */
export async function listUsersInFull(opts: ListOptions) {
  const { rows, ...page } = await readPage(opts, true);
  return {
    data: rows.map((row): User => ({
      ...toSummary(row),
      lastLogin: row.lastLogin ? isoFromUtc(row.lastLogin) : null,
      settings: { notifications: !!row.notifications, twoFactorAuth: !!row.twoFactorAuth },
    })),
    ...page,
  };
}

const toSummary = ({ id, name, email, role, createdAt }: PageRow): UserSummary => ({
  id,
  name,
  email,
  role,
  createdAt: isoFromUtc(createdAt),
});

async function readPage(opts: ListOptions, full: boolean) {
  const { db, principal, page, role, q, startingAfter } = opts;
  const accountId = principal.accountId;
  const shape = { byRole: !!role, search: !!q, cursor: startingAfter !== undefined, full };
  const values = {
    accountId,
    role,
    pattern: q ? containing(q) : undefined,
    cursor: startingAfter,
    // One more than asked after a cursor: whether it comes says whether a next page exists.
    limit: shape.cursor ? page.limit + 1 : page.limit,
    offset: (page.page - 1) * page.limit,
  };
  // One query after another: the embedded database's socket (pglite-socket) mixes up
  // statements pipelined on one connection.
  const rows = await driverRows<PageRow>(pageStatement(db, shape), values);
  if (shape.cursor && rows.length === 0) {
    const [known] = await cursorExists(db).execute(values);
    if (!known) throw unknownCursor();
  }
  // A page past the end has no row to carry the total.
  const total = shape.search
    ? ((await searchTotals[role ? 'byRole' : 'all'](db).execute(values))[0]?.total ?? 0)
    : (rows[0]?.total ?? (await userTotal({ db, accountId, role })));
  const shown = rows.slice(0, page.limit);
  const pagination = {
    total,
    page: page.page,
    limit: page.limit,
    pages: pageCount(total, page.limit),
  };
  if (!shape.cursor) return { rows: shown, pagination };
  const nextCursor = rows.length > page.limit ? (shown.at(-1)?.id ?? null) : null;
  return { rows: shown, pagination, meta: { pagination: { nextCursor } } };
}
