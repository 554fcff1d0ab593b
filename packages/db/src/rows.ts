import { sql, type Query, type SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import { preparedPerDb } from './prepared';

/**
 * The fast way to read rows: a query whose rows come from the driver as arrays and are decoded
 * by a table of fields, one per column; prepared once per database (`rowStatement`), or built
 * on each call where its shapes are too many to prepare each (`readRows`). Drizzle's own mapping
 * (nested objects, a decoder call per field, a `Date` parsed per timestamp) cost more than the
 * query for a page of 25–50 rows; this reads each row into one object, and timestamps as the
 * API writes them (ISO text) without a `Date` (whose parse of PostgreSQL's text also took the
 * years 0001–0099 for 19xx or 20xx).
 */

/** One column of a row statement: what it selects, and how the driver's value becomes the row's. */
export interface Field<T> {
  /** Built with the database when it reads other tables through it (a subquery). */
  readonly select: SQL | ((db: RowReader) => SQL);
  readonly decode: (value: unknown) => T;
}

export type Fields = Record<string, Field<unknown>>;

/** The row a table of fields decodes. */
export type RowOf<F extends Fields> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

/** A column's value, or null where the column allows it. */
type ValueOf<C extends PgColumn, T> = C['_']['notNull'] extends true ? T : T | null;

/**
 * Column types the drivers give as drizzle types them (with drizzle's parsers, both postgres.js
 * and PGlite): text, enums, 32-bit numbers, booleans, arrays of those, json. Others need their
 * own field: timestamps come as text (`field.timestamp`), and a bigint as text from postgres.js
 * but a number from PGlite (`field.bigint`); numeric has no field, as no list reads one yet.
 */
const AS_IS = new Set([
  'PgText',
  'PgVarchar',
  'PgEnumColumn',
  'PgInteger',
  'PgSmallInt',
  'PgBoolean',
  'PgArray',
  'PgJson',
  'PgJsonb',
]);

const asIs = <T>(value: unknown) => value as T;

/**
 * A `timestamptz` as UTC wall-clock text (`2026-11-23 14:46:05.224561`, the fraction trimmed of
 * trailing zeros or absent) written as `Date.prototype.toISOString` writes it (milliseconds,
 * truncated): cutting text costs far less than a `Date` parsed and printed, or `to_char` in
 * PostgreSQL.
 */
function isoFromUtc(text: string): string {
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.slice(20, 23).padEnd(3, '0')}Z`;
}

const isoOrNull = (value: unknown) => (value === null ? null : isoFromUtc(value as string));

/** As drizzle's bigint in number mode reads it: text (postgres.js) or a number (PGlite). */
const numberOrNull = (value: unknown) => (value === null ? null : Number(value));

export const field = {
  /** A column of a type the driver gives as it is (see AS_IS), null where the column allows. */
  column<C extends PgColumn>(column: C): Field<ValueOf<C, C['_']['data']>> {
    if (!AS_IS.has(column.columnType)) {
      throw new Error(
        `${column.name} (${column.columnType}) is not read as it is: use its own field.`,
      );
    }
    return { select: sql`${column}`, decode: asIs };
  },

  /** A timestamp column as ISO text (`toISOString`'s form); null where the column allows. */
  timestamp<C extends PgColumn>(column: C): Field<ValueOf<C, string>> {
    if (column.columnType !== 'PgTimestamp') throw new Error(`${column.name} is no timestamp.`);
    // As `timestamp` (UTC wall-clock time), which both drivers give as PostgreSQL writes it,
    // whatever the session's time zone.
    return {
      select: sql`(${column} at time zone 'UTC')`,
      decode: isoOrNull as (value: unknown) => ValueOf<C, string>,
    };
  },

  /** A `bigint({ mode: 'number' })` column as a number; null where the column allows. */
  bigint<C extends PgColumn>(column: C): Field<ValueOf<C, number>> {
    if (column.columnType !== 'PgBigInt53') throw new Error(`${column.name} is no bigint number.`);
    return {
      select: sql`${column}`,
      decode: numberOrNull as (value: unknown) => ValueOf<C, number>,
    };
  },

  /**
   * An expression whose value the driver gives as `T` (`sql<number>\`count(*)::int\``, an
   * `array(select …)` of text): the expression's SQL type must say so, with a cast if need be.
   * A function builds it with the database, for a subquery built by drizzle. In a query of one
   * table drizzle writes the select list's columns unqualified: a subquery of another table
   * names the outer table's columns with `qualified`.
   */
  sql<T>(expression: SQL<T> | ((db: RowReader) => SQL<T>)): Field<T> {
    return { select: expression, decode: asIs };
  },
};

/**
 * A column named with its table (`"posts"."id"`), as a subquery of another table must name
 * the outer query's columns: drizzle writes a one-table query's columns unqualified, and
 * unqualified in the subquery they would name its own table's. The name is the database's
 * (the schema's keys in snake case, as the client's `casing` writes them).
 */
export function qualified(column: PgColumn): SQL {
  const name = column.keyAsName ? toSnakeCase(column.name) : column.name;
  return sql`${column.table}.${sql.identifier(name)}`;
}

/** The select list of `fields`, each column under its key, for `db.select(…)`. */
export type Selection<F extends Fields> = { [K in keyof F]: SQL.Aliased };

function selection<F extends Fields>(db: RowReader, fields: F): Selection<F> {
  const entries = Object.entries(fields).map(([key, { select }]) => [
    key,
    (typeof select === 'function' ? select(db) : select).as(key),
  ]);
  return Object.fromEntries(entries) as Selection<F>;
}

/**
 * Decodes rows given as arrays of values, in the order of `fields`' keys (the select list's).
 * The decoder is written for its field table, each row one object literal: a loop storing
 * `row[key]` is one piece of code for every list, whose stores V8 stops specialising once
 * several lists have run it; this took a page of 50 users from 6.7 to 2.3 µs. The keys are the
 * code's own (a field table's), written as JSON string literals.
 */
function rowDecoder<F extends Fields>(fields: F): (rows: unknown[][]) => RowOf<F>[] {
  const decoders = Object.values(fields).map((f) => f.decode);
  // In a literal, `__proto__` would set the row's prototype rather than name a value.
  if (Object.hasOwn(fields, '__proto__')) throw new Error('A field cannot be named __proto__.');
  const properties = Object.keys(fields).map((key, i) =>
    decoders[i] === asIs
      ? `${JSON.stringify(key)}: v[${i}]`
      : `${JSON.stringify(key)}: d[${i}](v[${i}])`,
  );
  const decodeRow = new Function('d', `return (v) => ({ ${properties.join(', ')} });`)(
    decoders,
  ) as (values: unknown[]) => RowOf<F>;
  return (rows) => rows.map(decodeRow);
}

/** What reads through a row statement: the database or a transaction. */
export type RowReader = Pick<Db, '_' | 'select'>;

/** A prepared statement's rows, decoded; `values` fill its placeholders (`sql.placeholder`). */
export interface RowStatement<R> {
  execute(values?: Record<string, unknown>): Promise<R[]>;
}

/**
 * A query whose rows both drivers hand over as arrays, unmapped: no fields, and a result mapper.
 * Named, it is prepared (a server's statement on postgres.js); unnamed, it runs as text.
 */
function arrayQuery<R>(
  db: RowReader,
  query: Query,
  name: string | undefined,
  mapper: (rows: unknown[][]) => R[],
) {
  return db._.session.prepareQuery<{ execute: R[]; all: unknown; values: unknown }>(
    query,
    undefined,
    name,
    true,
    mapper,
  );
}

/**
 * A statement of rows decoded by `fields`, built and prepared once per database: `query` builds
 * it with drizzle (`db.select(select).from(…)`, placeholders for what varies). On postgres.js it
 * is a prepared statement of the server's; PGlite runs the same text with its parameters.
 */
export function rowStatement<F extends Fields>(opts: {
  name: string;
  fields: F;
  query: (db: RowReader, select: Selection<F>) => { toSQL(): Query };
}): (db: RowReader) => RowStatement<RowOf<F>> {
  const decode = rowDecoder(opts.fields);
  return preparedPerDb((db: RowReader) =>
    arrayQuery(db, opts.query(db, selection(db, opts.fields)).toSQL(), opts.name, decode),
  );
}

/** Each field table's decoder, written once: `readRows` is called with the list's own table. */
const decoderByFields = new WeakMap<Fields, (rows: unknown[][]) => unknown[]>();

function decoderOf<F extends Fields>(fields: F) {
  let decode = decoderByFields.get(fields);
  if (!decode) decoderByFields.set(fields, (decode = rowDecoder(fields)));
  return decode as (rows: unknown[][]) => RowOf<F>[];
}

/**
 * The rows of a query built on each call, decoded by `fields` as a row statement's are: for a
 * list whose filters make too many shapes to prepare each (on postgres.js the server still
 * plans each distinct text once per connection, `client.ts`).
 */
export function readRows<F extends Fields>(
  db: RowReader,
  fields: F,
  query: (db: RowReader, select: Selection<F>) => { toSQL(): Query },
): Promise<RowOf<F>[]> {
  const decode = decoderOf(fields);
  const sqlQuery = query(db, selection(db, fields)).toSQL();
  return arrayQuery(db, sqlQuery, undefined, decode).execute();
}

/** A value of a row drizzle read, as the row reader gives it: a `Date` as ISO text. */
type Read<T> = T extends Date ? string : T;

/**
 * A row drizzle read (a `returning()`, a `select()` of the whole table) in the row reader's
 * form, each `Date` as `toISOString` writes it: what writes a record for the API takes one
 * form, wherever the row came from.
 */
export function asRead<R extends object>(row: R): { [K in keyof R]: Read<R[K]> } {
  const entries = Object.entries(row).map(([key, value]) => [
    key,
    value instanceof Date ? value.toISOString() : value,
  ]);
  return Object.fromEntries(entries) as { [K in keyof R]: Read<R[K]> };
}
