import { bigint, boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  asRead,
  asc,
  eq,
  field,
  gte,
  qualified,
  readRows,
  rowStatement,
  sql,
  type Database,
  type Field,
} from '../src';
import { timestamptz } from '../src/schema/columns';
import { createTestDatabase, createTestServerDatabase } from '../src/testing';

const samples = pgTable('row_samples', {
  n: integer().notNull(),
  name: text().notNull(),
  note: text(),
  tags: text().array().notNull(),
  flag: boolean(),
  doc: jsonb().$type<{ a: number[] }>(),
  at: timestamptz().notNull(),
  maybeAt: timestamptz(),
  big: bigint({ mode: 'number' }),
});

// Every length of fraction PostgreSQL writes (it trims trailing zeros), and another zone.
const INSTANTS = [
  '2026-11-23T14:46:05Z',
  '2026-11-23T14:46:05.2Z',
  '2026-11-23T14:46:05.25Z',
  '2026-11-23T14:46:05.224Z',
  '2026-12-31T23:59:59.999Z',
  '2026-11-24T01:16:05.5+10:30',
  '1999-01-01T00:00:00.001Z',
];

/** Past 32 bits: a bigint the drivers give as text (postgres.js) or a number (PGlite). */
const BIG = 2 ** 40;

const fields = {
  n: field.column(samples.n),
  name: field.column(samples.name),
  note: field.column(samples.note),
  tags: field.column(samples.tags),
  flag: field.column(samples.flag),
  doc: field.column(samples.doc),
  at: field.timestamp(samples.at),
  maybeAt: field.timestamp(samples.maybeAt),
  big: field.bigint(samples.big),
  twice: field.sql(sql<number>`(${samples.n} * 2)::int`),
};

const all = rowStatement({
  name: 'row_samples_all',
  fields,
  query: (db, select) => db.select(select).from(samples).orderBy(asc(samples.n)),
});
const one = rowStatement({
  name: 'row_samples_one',
  fields: { n: fields.n, at: fields.at },
  query: (db, select) =>
    db
      .select(select)
      .from(samples)
      .where(eq(samples.n, sql.placeholder('n'))),
});

const readAll = (database: Database) => all(database.db).execute();

// One file, both drivers: in-process PGlite, and postgres.js (on DATABASE_URL's server, or on
// the embedded PGlite's socket).
describe.each([
  ['the database of the tests', createTestDatabase],
  ['a database over the PostgreSQL protocol', createTestServerDatabase],
])('rows read by a row statement, on %s', (_name, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table row_samples (n int not null, name text not null,
      note text, tags text[] not null, flag boolean, doc jsonb, at timestamptz(3) not null,
      maybe_at timestamptz(3), big bigint)`);
    for (const [n, at] of INSTANTS.entries()) {
      const odd = n % 2 === 1;
      await database.db.insert(samples).values({
        n,
        name: `sample ${n}`,
        note: odd ? null : 'a note',
        tags: odd ? [] : ['a', 'b c'],
        flag: odd ? null : n === 0,
        doc: odd ? null : { a: [n] },
        at: new Date(at),
        maybeAt: odd ? null : new Date(at),
        big: odd ? null : BIG + n,
      });
    }
  });
  afterAll(() => database.close());

  it('types each row by its fields: nullable where the column is', () => {
    expectTypeOf(all(database.db).execute).returns.resolves.items.toEqualTypeOf<{
      n: number;
      name: string;
      note: string | null;
      tags: string[];
      flag: boolean | null;
      doc: { a: number[] } | null;
      at: string;
      maybeAt: string | null;
      big: number | null;
      twice: number;
    }>();
  });

  it('decodes every column, nulls as null, timestamps as toISOString writes them', async () => {
    const rows = await all(database.db).execute();
    expect(rows).toEqual(
      INSTANTS.map((at, n) => {
        const odd = n % 2 === 1;
        const iso = new Date(at).toISOString();
        return {
          n,
          name: `sample ${n}`,
          note: odd ? null : 'a note',
          tags: odd ? [] : ['a', 'b c'],
          flag: odd ? null : n === 0,
          doc: odd ? null : { a: [n] },
          at: iso,
          maybeAt: odd ? null : iso,
          big: odd ? null : BIG + n,
          twice: n * 2,
        };
      }),
    );
  });

  it('fills placeholders on each call of the one statement', async () => {
    for (const n of [2, 5]) {
      expect(await one(database.db).execute({ n })).toEqual([
        { n, at: new Date(INSTANTS[n] ?? '').toISOString() },
      ]);
    }
  });

  it('reads a query built on each call (readRows) as a statement reads it', async () => {
    const read = (from: number) =>
      readRows(database.db, fields, (db, select) =>
        db.select(select).from(samples).where(gte(samples.n, from)).orderBy(asc(samples.n)),
      );
    const statement = await readAll(database);
    for (const from of [0, 4, INSTANTS.length]) {
      expect(await read(from)).toEqual(statement.slice(from));
    }
    expectTypeOf(read).returns.resolves.toEqualTypeOf<typeof statement>();
  });

  it('keys each row as its fields are keyed, whatever their characters', async () => {
    const odd = { 'a "quoted" key': fields.n, 'two\nlines\\': fields.name, constructor: fields.at };
    const [row] = await readRows(database.db, odd, (db, select) =>
      db.select(select).from(samples).where(eq(samples.n, 0)),
    );
    expect(row).toEqual({
      'a "quoted" key': 0,
      'two\nlines\\': 'sample 0',
      constructor: new Date(INSTANTS[0] ?? '').toISOString(),
    });
  });

  it('names an outer column in a subquery of another table (qualified)', async () => {
    // Each sample, with how many samples have a later `maybeAt` than its own (snake-cased
    // `maybe_at`): unqualified, `maybe_at` would name the subquery's own column.
    const later = field.sql(
      sql<number>`(select count(*)::int from ${sql.raw('row_samples as inner_samples')}
        where inner_samples.maybe_at > ${qualified(samples.maybeAt)})`,
    );
    const rows = await readRows(database.db, { n: fields.n, later }, (db, select) =>
      db.select(select).from(samples).orderBy(asc(samples.n)),
    );
    const stamps = INSTANTS.map((at, n) => (n % 2 === 1 ? null : new Date(at).getTime()));
    expect(rows).toEqual(
      stamps.map((own, n) => ({
        n,
        later: own === null ? 0 : stamps.filter((other) => other !== null && other > own).length,
      })),
    );
  });

  it('gives a row drizzle read in the same form (asRead)', async () => {
    const rows = await database.db.select().from(samples).orderBy(asc(samples.n));
    const read = await readAll(database);
    expect(rows.map(asRead)).toEqual(read.map(({ twice: _, ...row }) => row));
    expectTypeOf(asRead<(typeof rows)[number]>).returns.toEqualTypeOf<
      Omit<(typeof read)[number], 'twice'>
    >();
  });

  it("writes UTC whatever the session's time zone", async () => {
    const [row] = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Australia/Adelaide'`);
      return one(tx).execute({ n: 5 });
    });
    expect(row?.at).toBe('2026-11-23T14:46:05.500Z');
  });
});

describe('fields', () => {
  it('refuse a column whose driver value is not its type, and a timestamp that is none', () => {
    expect(() => field.column(samples.at)).toThrow(/not read as it is/);
    expect(() => field.timestamp(samples.name)).toThrow(/no timestamp/);
    expect(() => field.bigint(samples.n)).toThrow(/no bigint number/);
  });

  it('refuse a field named __proto__, which in a row would set its prototype', () => {
    const hostile = JSON.parse('{"__proto__": null}') as Record<string, unknown>;
    hostile['__proto__'] = field.column(samples.n);
    expect(() =>
      readRows({} as never, hostile as Record<string, Field<unknown>>, () => {
        throw new Error('not reached');
      }),
    ).toThrow(/__proto__/);
  });
});
