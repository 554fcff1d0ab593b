import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverRows, isoFromUtc, sql, utcText, type Database } from '../src';
import { createTestDatabase } from '../src/testing';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

// Every length of fraction PostgreSQL writes (it trims trailing zeros), and another zone.
const INSTANTS = [
  '2026-11-23T14:46:05Z',
  '2026-11-23T14:46:05.2Z',
  '2026-11-23T14:46:05.25Z',
  '2026-11-23T14:46:05.224Z',
  '2026-11-23T14:46:05.2245Z',
  '2026-11-23T14:46:05.22456Z',
  '2026-11-23T14:46:05.224561Z',
  '2026-12-31T23:59:59.999999Z',
  '2026-11-24T01:16:05.5+10:30',
  '1999-01-01T00:00:00.000001Z',
];

describe('rows as the driver reads them', () => {
  it('are keyed by the selection aliases, numbers as numbers', async () => {
    const query = database.db
      .select({ total: sql`(2 + 3)::int`.as('total'), name: sql`'Ada'`.as('name') })
      .from(sql`(select 1) as one`)
      .prepare('driver_rows_keys');
    expect(await driverRows(query, {})).toEqual([{ total: 5, name: 'Ada' }]);
  });

  it('give timestamps as UTC text that isoFromUtc writes as toISOString does', async () => {
    const at = sql`at`;
    const query = database.db
      .select({ at: utcText(at).as('at') })
      .from(
        sql`unnest(${sql.raw(`array[${INSTANTS.map((i) => `'${i}'`).join(', ')}]`)}::timestamptz[]) with ordinality as t(at, n)`,
      )
      .orderBy(sql`n`)
      .prepare('driver_rows_timestamps');
    const rows = await driverRows<{ at: string }>(query, {});
    expect(rows.map((row) => isoFromUtc(row.at))).toEqual(
      INSTANTS.map((instant) => new Date(instant).toISOString()),
    );
  });
});
