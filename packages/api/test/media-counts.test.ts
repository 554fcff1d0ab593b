import { media, mediaCounts, sql } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { mediaOf } from './posts-fixtures';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The kept counts against the records counted, per account. */
async function expectExact() {
  const kept: Record<string, number> = {};
  for (const row of await h.db.select().from(mediaCounts)) {
    if (row.count !== 0) kept[row.accountId] = row.count;
  }
  const counted: Record<string, number> = {};
  for (const row of await h.db.select({ accountId: media.accountId }).from(media)) {
    counted[row.accountId] = (counted[row.accountId] ?? 0) + 1;
  }
  expect(kept).toEqual(counted);
}

const total = async (token?: string) => {
  const { status, json } = await h.call('GET', '/api/content/media?limit=1', { token });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.meta.pagination.total as number;
};

describe('the media list total, from a count kept per account', () => {
  it('stays exact across records added and deleted, concurrently, and an account deleted', async () => {
    const other = await h.newAccount('Globex', 'admin@globex.test');
    const ids = await Promise.all(Array.from({ length: 6 }, () => mediaOf(h, h.main.accountId)));
    await mediaOf(h, other.accountId);
    await expectExact();
    expect(await total()).toBe(6);
    expect(await total(other.token)).toBe(1);

    const deleted = await Promise.all(
      ids.slice(0, 3).map((id) => h.call('DELETE', `/api/content/media/${id}`)),
    );
    expect(deleted.map((answer) => answer.status)).toEqual([204, 204, 204]);
    await expectExact();
    expect(await total()).toBe(3);

    await h.db.execute(sql`delete from accounts where id = ${other.accountId}`);
    await expectExact();
  });
});
