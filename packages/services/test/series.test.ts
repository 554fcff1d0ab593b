import type { Principal } from '@chorus/auth';
import {
  accounts,
  count,
  eq,
  events,
  inArray,
  openDatabase,
  postOccurrences,
  posts,
  sql,
  type Database,
} from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { ZCreatePost } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createPost, newId, publishDuePosts, updatePost } from '../src';

const DAY = 86_400_000;

describe('recurring series in the scheduler', () => {
  let database: Database;
  let admin: Principal;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'Series',
      admin: { name: 'Ada', email: 'ada@series.test', password: 'correct horse battery' },
    });
    await database.db
      .update(accounts)
      .set({ timeZone: 'Europe/Berlin' })
      .where(eq(accounts.id, accountId));
    admin = {
      accountId,
      userId: adminId,
      role: 'admin',
      tier: 'free',
      credential: { kind: 'session', id: 'test' },
      scopes: ['content:read', 'content:write'],
    };
  });
  afterAll(() => database?.close());

  /** Series that started `daysAgo` days ago and were last served before the downtime. */
  async function insertMissedSeries(n: number, daysAgo: number) {
    const start = new Date(Date.now() - daysAgo * DAY - 60_000);
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId('post'),
      accountId: admin.accountId,
      authorId: admin.userId,
      title: `Daily ${i}`,
      status: 'scheduled' as const,
      scheduledAt: start,
      recurrence: 'FREQ=DAILY',
      nextOccurrenceAt: start,
    }));
    await database.db.insert(posts).values(rows);
    return { ids: rows.map((row) => row.id), start };
  }

  const copiesOf = (ids: string[]) =>
    database.db.select().from(posts).where(inArray(posts.recurrenceOf, ids));

  it('publishes one copy of the latest missed occurrence, however many sweeps run at once', async () => {
    const { ids, start } = await insertMissedSeries(30, 3);
    // Separate pools on a PostgreSQL server, so the sweeps really overlap there.
    const pools = database.url
      ? await Promise.all([1, 2].map(() => openDatabase({ url: database.url ?? '', max: 2 })))
      : [];
    const dbs = [database.db, ...pools.map((pool) => pool.db)];
    await Promise.all(
      dbs.flatMap((db) => [publishDuePosts({ db, batchSize: 7 }), publishDuePosts({ db })]),
    );
    await Promise.all(pools.map((pool) => pool.close()));

    const copies = await copiesOf(ids);
    expect(copies).toHaveLength(30);
    expect(new Set(copies.map((copy) => copy.recurrenceOf)).size).toBe(30);
    // Three days of downtime: the latest occurrence only, today's (a minute ago).
    const latest = start.getTime() + 3 * DAY;
    for (const copy of copies) {
      expect(copy.status).toBe('published');
      expect(copy.scheduledAt?.getTime()).toBe(latest);
      expect(copy.recurrence).toBeNull();
    }
    const [occurrences] = await database.db
      .select({ n: count() })
      .from(postOccurrences)
      .where(inArray(postOccurrences.postId, ids));
    expect(occurrences?.n).toBe(30);
    const [published] = await database.db
      .select({ n: count() })
      .from(events)
      .where(
        sql`${events.type} = 'post.published' and ${events.payload}->'data'->'object'->>'recurrenceOf' is not null`,
      );
    expect(published?.n).toBe(30);
    const series = await database.db.select().from(posts).where(inArray(posts.id, ids));
    for (const row of series) {
      expect(row.status).toBe('scheduled');
      expect(row.nextOccurrenceAt?.getTime()).toBe(latest + DAY);
    }
    await publishDuePosts({ db: database.db });
    expect(await copiesOf(ids)).toHaveLength(30);
  });

  const create = (body: Record<string, unknown>) =>
    createPost({ db: database.db, principal: admin, input: ZCreatePost.parse(body) });

  it('answers the next five occurrences in the account’s zone, and copies the post as edited', async () => {
    const start = new Date(Date.now() + DAY);
    const post = await create({
      title: 'Weekly',
      status: 'scheduled',
      scheduledAt: start.toISOString(),
      recurrence: 'FREQ=WEEKLY',
    });
    expect(post.recurrence).toBe('FREQ=WEEKLY');
    expect(post.nextOccurrences).toHaveLength(5);
    const local = (iso: string) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso));
    expect(new Set(post.nextOccurrences.map(local))).toEqual(new Set([local(start.toISOString())]));
    expect(post.nextOccurrences[0]).toBe(start.toISOString());

    const edited = await updatePost({
      db: database.db,
      principal: admin,
      id: post.id,
      input: { title: 'Weekly, edited', tags: ['evergreen'] },
    });
    expect(edited.nextOccurrences).toEqual(post.nextOccurrences);
    // Its start comes: as if a day went by.
    await database.db
      .update(posts)
      .set({
        nextOccurrenceAt: new Date(Date.now() - 1000),
        scheduledAt: new Date(Date.now() - 1000),
      })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: database.db });
    const [copy] = await copiesOf([post.id]);
    expect(copy?.title).toBe('Weekly, edited');
    expect(copy?.tags).toEqual(['evergreen']);
    expect(copy?.status).toBe('published');
  });

  it('stops the series when it is archived, unscheduled or its rule is cleared', async () => {
    const later = new Date(Date.now() + DAY).toISOString();
    const scheduled = (recurrence: string | null) =>
      create({ title: 'S', status: 'scheduled', scheduledAt: later, recurrence });
    const series = await scheduled('FREQ=DAILY;COUNT=3');
    expect(series.nextOccurrences).toHaveLength(3);
    const update = (id: string, input: Record<string, unknown>) =>
      updatePost({ db: database.db, principal: admin, id, input });

    const archived = await update(series.id, { status: 'archived' });
    expect(archived.status).toBe('archived');
    expect(archived.nextOccurrences).toEqual([]);
    const second = await scheduled('FREQ=DAILY');
    expect((await update(second.id, { recurrence: null })).nextOccurrences).toEqual([]);
    const third = await scheduled('FREQ=DAILY');
    expect((await update(third.id, { status: 'draft' })).nextOccurrences).toEqual([]);
    const rows = await database.db
      .select({ next: posts.nextOccurrenceAt })
      .from(posts)
      .where(inArray(posts.id, [series.id, second.id, third.id]));
    expect(rows.every((row) => row.next === null)).toBe(true);
  });

  it('refuses to publish a series by hand, and to archive a scheduled post that is none', async () => {
    const later = new Date(Date.now() + DAY).toISOString();
    await expect(
      create({ title: 'Now', status: 'published', recurrence: 'FREQ=DAILY' }),
    ).rejects.toMatchObject({ code: 'invalid_status_transition' });
    const series = await create({
      title: 'S',
      status: 'scheduled',
      scheduledAt: later,
      recurrence: 'FREQ=DAILY',
    });
    await expect(
      updatePost({
        db: database.db,
        principal: admin,
        id: series.id,
        input: { status: 'published' },
      }),
    ).rejects.toMatchObject({
      code: 'invalid_status_transition',
      details: { allowedStatuses: ['draft', 'archived'] },
    });
    const once = await create({ title: 'Once', status: 'scheduled', scheduledAt: later });
    await expect(
      updatePost({ db: database.db, principal: admin, id: once.id, input: { status: 'archived' } }),
    ).rejects.toMatchObject({
      code: 'invalid_status_transition',
      details: { allowedStatuses: ['draft', 'published'] },
    });
  });

  it('runs a series whose rule picks no day of its own as its start alone, without walking to 9999', async () => {
    // Every seventh day from the start is the start's weekday, never the one BYDAY names:
    // creating, listing and repeating it each walked the rule to the year 9999 (seconds).
    const start = new Date(Date.now() + DAY);
    const days = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
    const local = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', weekday: 'short' });
    const otherDay = days[(days.indexOf(local.format(start).slice(0, 2)) + 1) % 7]?.toUpperCase();
    const began = performance.now();
    const post = await create({
      title: 'Never its own',
      status: 'scheduled',
      scheduledAt: start.toISOString(),
      recurrence: `FREQ=DAILY;INTERVAL=7;BYDAY=${otherDay};COUNT=5`,
    });
    expect(post.nextOccurrences).toEqual([start.toISOString()]);
    const past = new Date(Date.now() - 1000);
    await database.db
      .update(posts)
      .set({ scheduledAt: past, nextOccurrenceAt: past })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: database.db });
    const copies = await copiesOf([post.id]);
    expect(copies.map((copy) => copy.scheduledAt?.toISOString())).toEqual([past.toISOString()]);
    const [series] = await database.db.select().from(posts).where(eq(posts.id, post.id));
    expect(series).toMatchObject({ status: 'scheduled', nextOccurrenceAt: null });
    expect(performance.now() - began).toBeLessThan(3_000);
  });

  it('keeps a rule from changing once the post is published', async () => {
    const post = await create({ title: 'Out', status: 'published' });
    await expect(
      updatePost({
        db: database.db,
        principal: admin,
        id: post.id,
        input: { recurrence: 'FREQ=DAILY' },
      }),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });
});
