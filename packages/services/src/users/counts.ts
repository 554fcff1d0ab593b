import { and, eq, preparedPerDb, sql, sum, userCounts, type Db } from '@chorus/db';
import type { Role } from '@chorus/validators';

/** The transaction that inserts, re-roles or deletes the users being counted. */
type Writer = Pick<Db, 'insert' | 'update'>;
type Reader = Pick<Db, 'select'>;

/**
 * Adds `changes` (a number per role, negative for users gone) to the account's user counts.
 * Call it in the transaction of the change, as every insert, role change and delete of a user
 * does: the counts then commit or roll back with it.
 *
 * Here, not in a trigger: every write of `users` is one of five service functions, and the
 * rule then reads in TypeScript beside them and beside its readers (the list's total, the
 * last-admin rule), as the analytics rollups do, instead of in PL/pgSQL hand-added to a
 * generated migration. What a trigger would catch for free, a bulk load past the services
 * (a benchmark's seed), calls this too; a write that forgets runs into `count >= 0`.
 *
 * One row per (account, role), updated in place: concurrent writers of one account queue on
 * it for the rest of their transaction, so call it last.
 */
export async function countUsers(opts: {
  tx: Writer;
  accountId: string;
  changes: Partial<Record<Role, number>>;
}) {
  const { tx, accountId, changes } = opts;
  for (const [role, by = 0] of Object.entries(changes) as [Role, number | undefined][]) {
    if (by > 0) {
      await tx
        .insert(userCounts)
        .values({ accountId, role, count: by })
        .onConflictDoUpdate({
          target: [userCounts.accountId, userCounts.role],
          set: { count: sql`${userCounts.count} + ${by}` },
        });
    } else if (by < 0) {
      // An update, not an upsert: PostgreSQL checks `count >= 0` on the row an insert proposes.
      const [left] = await tx
        .update(userCounts)
        .set({ count: sql`${userCounts.count} + ${by}` })
        .where(and(eq(userCounts.accountId, accountId), eq(userCounts.role, role)))
        .returning({ count: userCounts.count });
      if (!left) throw new Error(`no ${role} count for account ${accountId}`);
    }
  }
}

/**
 * The account's user total (of the role in placeholder `role` with `byRole`), from placeholder
 * `accountId`: a query of its own, or a subquery that another statement carries.
 */
export const userTotalQuery = (db: Reader, byRole: boolean) =>
  db
    .select({ total: sum(userCounts.count).mapWith(Number) })
    .from(userCounts)
    .where(
      and(
        eq(userCounts.accountId, sql.placeholder('accountId')),
        byRole ? eq(userCounts.role, sql.placeholder('role')) : undefined,
      ),
    );

const totalOf = (byRole: boolean) =>
  preparedPerDb((db) =>
    userTotalQuery(db, byRole).prepare(byRole ? 'user_count_by_role' : 'user_count'),
  );

// Read on every page of the users list: prepared once, per filter.
const totalQuery = { all: totalOf(false), byRole: totalOf(true) };

/** How many users the account has (of one role, when given): one or two rows read. */
export async function userTotal(opts: { db: Db; accountId: string; role?: Role }) {
  const { db, accountId, role } = opts;
  const [row] = await totalQuery[role ? 'byRole' : 'all'](db).execute({ accountId, role });
  return row?.total ?? 0;
}

/** How many admins the account has, read in `tx` (the last-admin rule's transaction). */
export async function adminCount(tx: Reader, accountId: string) {
  const [row] = await tx
    .select({ count: userCounts.count })
    .from(userCounts)
    .where(and(eq(userCounts.accountId, accountId), eq(userCounts.role, 'admin')));
  return row?.count ?? 0;
}
