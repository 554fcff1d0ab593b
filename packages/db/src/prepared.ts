import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from './client';

/**
 * A query built and prepared once per database (`build` uses `sql.placeholder` for what
 * varies, and ends with `.prepare(name)`), for hot paths: each call then skips building the
 * SQL, and the server keeps its plan.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const prepared = new WeakMap<Db, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}

/**
 * A prepared query's rows as the driver reads them: objects keyed by the column names the
 * query selects (an alias: `sql\`…\`.as('createdAt')`), values as the driver parses them
 * (timestamps as text). No mapping field by field, which for a page of rows costs drizzle more
 * than the query costs PostgreSQL. Both drivers' prepared queries have it (`all`), undeclared
 * in drizzle's types; the tests of both drivers read through it.
 */
export function driverRows<T>(
  query: { execute(values?: Record<string, unknown>): Promise<unknown> },
  values: Record<string, unknown>,
): Promise<T[]> {
  return (query as unknown as { all(values: Record<string, unknown>): Promise<T[]> }).all(values);
}

/**
 * A `timestamptz` as UTC wall-clock time (a `timestamp`), which both drivers read as the text
 * PostgreSQL writes for it (`2026-11-23 14:46:05.224561`; the fraction trimmed of trailing
 * zeros, or absent): for `driverRows`, with `isoFromUtc`.
 */
export const utcText = (column: SQLWrapper) => sql`(${column} at time zone 'UTC')`;

/**
 * That text as JSON dates are written (`Date.prototype.toISOString`: milliseconds, truncated).
 * Cutting text costs far less than PostgreSQL's `to_char` per row, or a Date parsed and printed.
 */
export function isoFromUtc(text: string): string {
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.slice(20, 23).padEnd(3, '0')}Z`;
}
