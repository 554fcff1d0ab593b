import { count, eq, events, openDatabase, posts, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, newId, publishDuePosts } from '../src';

describe('publishDuePosts', () => {
  let database: Database;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ accountId } = await createAccount(database.db, {
      name: 'Pub',
      admin: { name: 'Ada', email: 'ada@pub.test', password: 'correct horse battery' },
    }));
  });
  afterAll(() => database?.close());

  const insert = (n: number, scheduledAt: Date) =>
    database.db.insert(posts).values(
      Array.from({ length: n }, (_, i) => ({
        id: newId('post'),
        accountId,
        title: `P${i}`,
        status: 'scheduled' as const,
        scheduledAt,
      })),
    );

  it('publishes only what is due, once, however many sweeps run at the same time', async () => {
    await insert(150, new Date(Date.now() - 1000));
    await insert(5, new Date(Date.now() + 3_600_000));
    // Separate pools on a PostgreSQL server, so the sweeps really overlap there.
    const pools = database.url
      ? await Promise.all([1, 2, 3].map(() => openDatabase({ url: database.url ?? '', max: 2 })))
      : [];
    const dbs = [database.db, ...pools.map((pool) => pool.db)];
    const published = await Promise.all(
      dbs.flatMap((db) => [
        publishDuePosts({ db, batchSize: 20 }),
        publishDuePosts({ db, batchSize: 20 }),
      ]),
    );
    await Promise.all(pools.map((pool) => pool.close()));
    expect(published.reduce((a, b) => a + b, 0)).toBe(150);
    const [events_] = await database.db
      .select({ n: count() })
      .from(events)
      .where(eq(events.type, 'post.published'));
    expect(events_?.n).toBe(150);
    const [stillScheduled] = await database.db
      .select({ n: count() })
      .from(posts)
      .where(eq(posts.status, 'scheduled'));
    expect(stillScheduled?.n).toBe(5);
    expect(await publishDuePosts({ db: database.db })).toBe(0);
  });
});
