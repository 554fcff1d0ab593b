import {
  count,
  eq,
  events,
  inArray,
  openDatabase,
  postTargets,
  posts,
  type Database,
} from '@chorus/db';
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

  it('sends a due post with targets to publishing, its targets pending, with post.publishing', async () => {
    const withTargets = newId('post');
    const without = newId('post');
    const due = new Date(Date.now() - 1000);
    await database.db.insert(posts).values([
      { id: withTargets, accountId, title: 'T', status: 'scheduled', scheduledAt: due },
      { id: without, accountId, title: 'N', status: 'scheduled', scheduledAt: due },
    ]);
    // A target left over from an earlier round: the new round starts it afresh.
    const targetIds = [newId('tgt'), newId('tgt')];
    await database.db.insert(postTargets).values(
      targetIds.map((id, position) => ({
        id,
        postId: withTargets,
        accountId,
        channelId: newId('chn'),
        position,
        attempts: position * 3,
        error: position ? { code: 'rejected', message: 'No', retryable: false } : null,
      })),
    );
    const heard: string[][] = [];
    expect(
      await publishDuePosts({
        db: database.db,
        onTargetsDue: async (ids) => {
          heard.push(ids);
        },
      }),
    ).toBe(2);
    expect(heard.flat().sort()).toEqual([...targetIds].sort());
    const rows = await database.db
      .select({ id: posts.id, status: posts.status, publishedAt: posts.publishedAt })
      .from(posts)
      .where(inArray(posts.id, [withTargets, without]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(withTargets)).toMatchObject({ status: 'publishing', publishedAt: null });
    expect(byId.get(without)?.status).toBe('published');
    const targets = await database.db
      .select()
      .from(postTargets)
      .where(eq(postTargets.postId, withTargets));
    for (const target of targets) {
      expect(target).toMatchObject({ status: 'pending', attempts: 0, error: null });
    }
    const types = await database.db
      .select({ type: events.type, id: events.payload })
      .from(events)
      .where(inArray(events.type, ['post.publishing', 'post.published']));
    const of = (id: string) =>
      types
        .filter((row) => (row.id as { data: { object: { id: string } } }).data.object.id === id)
        .map((row) => row.type);
    expect(of(withTargets)).toEqual(['post.publishing']);
    expect(of(without)).toEqual(['post.published']);
  });
  it('never makes a published target due again: a rescheduled post sends only the rest', async () => {
    const due = new Date(Date.now() - 1000);
    const partly = newId('post');
    const done = newId('post');
    await database.db.insert(posts).values([
      { id: partly, accountId, title: 'Partly', status: 'scheduled', scheduledAt: due },
      { id: done, accountId, title: 'Done', status: 'scheduled', scheduledAt: due },
    ]);
    const published = { status: 'published' as const, externalId: 'x1', url: 'https://x/1' };
    const [sent, failed, allSent] = [newId('tgt'), newId('tgt'), newId('tgt')];
    await database.db.insert(postTargets).values([
      { id: sent, postId: partly, accountId, channelId: newId('chn'), position: 0, ...published },
      {
        id: failed,
        postId: partly,
        accountId,
        channelId: newId('chn'),
        position: 1,
        status: 'failed',
      },
      { id: allSent, postId: done, accountId, channelId: newId('chn'), position: 0, ...published },
    ]);
    const heard: string[] = [];
    await publishDuePosts({
      db: database.db,
      onTargetsDue: async (ids) => void heard.push(...ids),
    });
    expect(heard).toEqual([failed]);
    const rows = await database.db
      .select({ id: postTargets.id, status: postTargets.status })
      .from(postTargets)
      .where(inArray(postTargets.id, [sent, failed, allSent]));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({
      [sent]: 'published',
      [failed]: 'pending',
      [allSent]: 'published',
    });
    // With nothing left to send, the post is settled at once rather than left publishing.
    const [post] = await database.db.select().from(posts).where(eq(posts.id, done));
    expect(post?.status).toBe('published');
  });
});
