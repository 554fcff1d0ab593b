import { describe, expect, it } from 'vitest';
import { sql } from '../src';
import { createTestDatabase } from '../src/testing';

describe('the list indexes', () => {
  it('are in the order the lists read (DESC NULLS FIRST): PostgreSQL takes no order from DESC NULLS LAST', async () => {
    const database = await createTestDatabase();
    try {
      const rows = (await database.db.execute(
        sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`,
      )) as unknown as
        | { indexname: string; indexdef: string }[]
        | { rows: { indexname: string; indexdef: string }[] };
      const indexes = Array.isArray(rows) ? rows : rows.rows;
      expect(indexes.length).toBeGreaterThan(10);
      // ORDER BY x DESC sorts nulls first; an index with nulls last cannot give that order,
      // so every page would sort the whole account.
      expect(indexes.filter((i) => i.indexdef.includes('DESC NULLS LAST'))).toEqual([]);
      expect(indexes.filter((i) => / DESC[,)]/.test(i.indexdef)).length).toBeGreaterThan(5);
    } finally {
      await database.close();
    }
  });
});
