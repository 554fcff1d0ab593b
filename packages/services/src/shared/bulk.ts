import { sql, type SQL } from '@chorus/db';

/** Column name → PostgreSQL type, in the order the columns are written. */
export type Columns = Readonly<Record<string, string>>;

/**
 * `jsonb_to_recordset(<the rows as one JSON text>) as <alias>(<column> <type>, …)`: a thousand
 * rows as one parameter. V8's JSON.stringify and PostgreSQL's JSON parser do the work that
 * per-value parameters (a multi-row VALUES list built by Drizzle) or a hand-escaped array
 * literal did in JavaScript, which cost more than the database's own work. Each row's keys
 * name columns; a missing key is null; PostgreSQL casts every value to its column's type.
 */
export function jsonRecords(alias: string, columns: Columns, rows: readonly object[]): SQL {
  const definition = Object.entries(columns)
    .map(([name, type]) => `"${name}" ${type}`)
    .join(', ');
  // As text, then jsonb: a json-typed parameter would be serialised once more by some drivers.
  // jsonb, not json: parsed once, where json_to_recordset re-reads the text (4× slower here).
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as ${sql.raw(alias)}(${sql.raw(definition)})`;
}

/** `insert into <table> (<columns>) select <columns> from jsonb_to_recordset(…)`. */
export function bulkInsert(table: string, columns: Columns, rows: readonly object[]): SQL {
  const names = sql.raw(
    Object.keys(columns)
      .map((c) => `"${c}"`)
      .join(', '),
  );
  return sql`insert into ${sql.identifier(table)} (${names}) select ${names} from ${jsonRecords('r', columns, rows)}`;
}
