import { sql, type SQL } from '@chorus/db';

/** A PostgreSQL array literal of text (`{"a",NULL}`): one parameter whatever the driver. */
export const textArray = (values: (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;

/** `unnest(<one text array per column cast to its type>)`: a set of rows as a few parameters. */
export function unnestRows(
  types: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): SQL {
  const arrays = types.map((type, i) => {
    const values = rows.map((row) => {
      const value = row[i];
      return value === null || value === undefined ? null : String(value);
    });
    return sql`${textArray(values)}::text[]::${sql.raw(type)}[]`;
  });
  return sql`unnest(${sql.join(arrays, sql`, `)})`;
}

/**
 * `insert into <table> (<columns>) select * from unnest(<one text array per column>)`: a
 * thousand rows as a handful of parameters, with none of the per-value work of a multi-row
 * VALUES list (which, built by Drizzle, cost more than the database's own work). Every
 * column travels as text and is cast to `types[i]` by PostgreSQL.
 */
export function unnestInsert(
  table: string,
  columns: readonly string[],
  types: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
  alias?: string,
): SQL {
  const names = sql.raw(columns.map((c) => `"${c}"`).join(', '));
  const target = alias
    ? sql`${sql.identifier(table)} as ${sql.identifier(alias)}`
    : sql.identifier(table);
  return sql`insert into ${target} (${names}) select * from ${unnestRows(types, rows)}`;
}
