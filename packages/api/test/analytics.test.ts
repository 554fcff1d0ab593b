import { eq, count as countOf, MAX_DAILY_COUNT, sql, trackedEvents } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
});
afterAll(() => h.close());

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const at = (date: string, time = '12:00:00.000') => `${date}T${time}Z`;

const record = (events: unknown[], token?: string) =>
  h.call('POST', '/api/analytics/events', { body: { events }, token });

async function eventsIn(accountId: string) {
  const [row] = await h.db
    .select({ n: countOf() })
    .from(trackedEvents)
    .where(eq(trackedEvents.accountId, accountId));
  return row?.n ?? 0;
}

const issuePaths = (json: { error: { details: { issues: { path: string }[] } } }) =>
  json.error.details.issues.map((i) => i.path).sort();

describe('POST /api/analytics/events', () => {
  it('answers 201 with the created events in the shape docs/analytics.md gives', async () => {
    const post = await createPost(h, { title: 'Recorded' });
    const before = Date.now();
    const { status, json } = await record([
      { type: 'impression', contentId: post.id, integrationId: 'facebook', properties: { a: 1 } },
      { type: 'like', occurredAt: '2026-01-02T03:04:05+02:00', count: 3 },
    ]);
    expect(status).toBe(201);
    expect(json.success).toBe(true);
    const [first, second] = json.data;
    expect(Object.keys(first).sort()).toEqual(
      [
        'contentId',
        'count',
        'createdAt',
        'id',
        'integrationId',
        'occurredAt',
        'properties',
        'type',
      ].sort(),
    );
    expect(first).toMatchObject({
      type: 'impression',
      contentId: post.id,
      integrationId: 'facebook',
      count: 1,
      properties: { a: 1 },
    });
    expect(first.id).toMatch(/^aev_[0-9A-Z]{26}$/);
    expect(Date.parse(first.occurredAt)).toBeGreaterThanOrEqual(before - 1);
    expect(second).toMatchObject({
      type: 'like',
      contentId: null,
      integrationId: null,
      occurredAt: '2026-01-02T01:04:05.000Z',
      count: 3,
      properties: {},
    });
  });

  it('keeps properties exactly as sent: quotes, backslashes, braces, commas, NULL-like text, unicode', async () => {
    const properties = {
      quote: 'say "hi"',
      slash: 'C:\\dir\\',
      braces: '{a,b}',
      null: 'NULL',
      nested: { list: [1, 'two', null, { deep: true }] },
      unicode: 'été 😀',
    };
    const { status, json } = await record([{ type: 'view', properties }, { type: 'view' }]);
    expect(status).toBe(201);
    expect(json.data[0].properties).toEqual(properties);
    const listed = await h.call('GET', '/api/analytics/events?limit=2');
    const stored = listed.json.data.find((e: { id: string }) => e.id === json.data[0].id);
    expect(stored.properties).toEqual(properties);
  });

  it('writes nothing when one item is bad, naming every bad index', async () => {
    const mine = await createPost(h, { title: 'Mine' });
    const theirs = await createPost(h, { title: 'Theirs' }, other.token);
    const before = await eventsIn(h.main.accountId);
    const { status, json } = await record([
      { type: 'view', contentId: mine.id },
      { type: 'view', contentId: theirs.id },
      { type: 'view', integrationId: 'myspace' },
      { type: 'view', contentId: 'post_nope' },
    ]);
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect(issuePaths(json)).toEqual([
      'events[1].contentId',
      'events[2].integrationId',
      'events[3].contentId',
    ]);
    expect(await eventsIn(h.main.accountId)).toBe(before);
  });

  it('checks every item’s fields first, then, once they are right, every reference', async () => {
    const batch = [
      { type: 'view', integrationId: 'myspace' },
      { type: 'purchase' },
      { type: 'view', count: 0 },
      { type: 'view', contentId: 'post_nope' },
    ];
    const fields = await record(batch);
    expect(fields.status).toBe(400);
    expect(issuePaths(fields.json)).toEqual(['events[1].type', 'events[2].count']);
    const fixed = batch.map((event, i) => (i === 1 || i === 2 ? { type: 'view' } : event));
    const references = await record(fixed);
    expect(references.status).toBe(400);
    expect(issuePaths(references.json)).toEqual(['events[0].integrationId', 'events[3].contentId']);
  });

  it('validates every field of every item before writing', async () => {
    const before = await eventsIn(h.main.accountId);
    const tooBig = { blob: 'x'.repeat(8 * 1024) };
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const { status, json } = await record([
      { type: 'view' },
      { type: 'purchase' },
      { type: 'view', properties: tooBig },
      { type: 'view', properties: ['a'] },
      { type: 'view', occurredAt: future },
      { type: 'view', occurredAt: '2026-01-02 03:04' },
      { type: 'view', count: 0 },
    ]);
    expect(status).toBe(400);
    expect(issuePaths(json)).toEqual([
      'events[1].type',
      'events[2].properties',
      'events[3].properties',
      'events[4].occurredAt',
      'events[5].occurredAt',
      'events[6].count',
    ]);
    expect(await eventsIn(h.main.accountId)).toBe(before);
  });

  it('takes 1 to 1,000 events, and properties up to 8 KiB', async () => {
    expect((await record([])).status).toBe(400);
    const many = Array.from({ length: 1001 }, () => ({ type: 'view' }));
    const over = await record(many);
    expect(over.status).toBe(400);
    expect(issuePaths(over.json)).toEqual(['events']);
    const full = await record(many.slice(1));
    expect(full.status).toBe(201);
    expect(full.json.data).toHaveLength(1000);
    const fits = { blob: 'x'.repeat(8 * 1024 - 20) };
    expect((await record([{ type: 'view', properties: fits }])).status).toBe(201);
    // Bytes of UTF-8, not characters: 'é' is two.
    const wide = { blob: 'é'.repeat(4090) };
    expect((await record([{ type: 'view', properties: wide }])).status).toBe(201);
    const tooWide = await record([{ type: 'view', properties: { blob: 'é'.repeat(4100) } }]);
    expect(tooWide.status).toBe(400);
    expect(issuePaths(tooWide.json)).toEqual(['events[0].properties']);
    const noEvents = await h.call('POST', '/api/analytics/events', { body: {} });
    expect(noEvents.status).toBe(400);
  });
});

describe('GET /api/analytics/events', () => {
  it('filters by type, post, platform and occurredAt (dates cover whole UTC days), newest first', async () => {
    const { token } = await h.newAccount('Filters', 'admin@filters.test');
    const post = await createPost(h, { title: 'F' }, token);
    const created = await record(
      [
        { type: 'click', contentId: post.id, occurredAt: at('2026-03-01', '00:00:00.000') },
        { type: 'click', integrationId: 'instagram', occurredAt: at('2026-03-01', '23:59:59.999') },
        { type: 'like', occurredAt: at('2026-03-02') },
      ],
      token,
    );
    expect(created.status).toBe(201);
    const list = async (query: string) => {
      const { status, json } = await h.call('GET', `/api/analytics/events?${query}`, { token });
      expect(status, JSON.stringify(json)).toBe(200);
      return json;
    };
    const all = await list('');
    expect(all.meta.pagination).toEqual({
      total: 3,
      count: 3,
      perPage: 25,
      currentPage: 1,
      totalPages: 1,
      nextCursor: null,
    });
    expect(all.data.map((e: { id: string }) => e.id)).toEqual(
      created.json.data
        .map((e: { id: string }) => e.id)
        .sort()
        .reverse(),
    );
    expect((await list('type=click')).data).toHaveLength(2);
    expect((await list(`contentId=${post.id}`)).data).toHaveLength(1);
    expect((await list('integrationId=instagram')).data).toHaveLength(1);
    expect((await list('from=2026-03-01&to=2026-03-01')).data).toHaveLength(2);
    expect((await list('from=2026-03-01T12:00:00Z')).data).toHaveLength(2);
    expect((await list('to=2026-03-01T00:00:00.000Z')).data).toHaveLength(1);
    const paged = await list('limit=1&page=2');
    expect(paged.data).toHaveLength(1);
    expect(paged.meta.pagination.totalPages).toBe(3);
  });

  it('refuses bad filters with validation_error naming them', async () => {
    for (const [query, path] of [
      ['type=purchase', 'type'],
      ['from=2026-02-30', 'from'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
      ['from=0000-01-01', 'from'],
      ['limit=101', 'limit'],
    ]) {
      const { status, json } = await h.call('GET', `/api/analytics/events?${query}`);
      expect(status, query).toBe(400);
      expect(issuePaths(json), query).toEqual([path]);
    }
    // Year 0 is no day (the database has none): refused on the statistics too, never a 500.
    const stats = await h.call('GET', '/api/analytics/stats?to=0000-01-01');
    expect(stats.status).toBe(400);
    expect(issuePaths(stats.json)).toEqual(['to']);
  });
});

describe('GET /api/analytics/stats', () => {
  it('answers totals, the engagement rate, every day, platforms and top posts from known data', async () => {
    const { token } = await h.newAccount('Stats', 'admin@stats.test');
    const launch = await createPost(h, { title: 'Launch' }, token);
    const recap = await createPost(h, { title: 'Recap' }, token);
    const d1 = day(-3);
    const d3 = day(-1);
    const ok = await record(
      [
        {
          type: 'impression',
          contentId: launch.id,
          integrationId: 'facebook',
          count: 100,
          occurredAt: at(d1),
        },
        {
          type: 'like',
          contentId: launch.id,
          integrationId: 'facebook',
          count: 4,
          occurredAt: at(d1),
        },
        {
          type: 'click',
          contentId: launch.id,
          integrationId: 'linkedin',
          count: 2,
          occurredAt: at(d3),
        },
        { type: 'share', contentId: recap.id, count: 1, occurredAt: at(d3) },
        { type: 'follow', occurredAt: at(d3) },
      ],
      token,
    );
    expect(ok.status).toBe(201);
    const { status, json } = await h.call(
      'GET',
      `/api/analytics/stats?from=${day(-4)}&to=${day(0)}`,
      {
        token,
      },
    );
    expect(status).toBe(200);
    const stats = json.data;
    expect(stats.from).toBe(day(-4));
    expect(stats.to).toBe(day(0));
    expect(stats.totals).toEqual({
      impression: 100,
      view: 0,
      click: 2,
      like: 4,
      share: 1,
      comment: 0,
      follow: 1,
    });
    expect(stats.engagementRate).toBeCloseTo(0.07, 10);
    expect(stats.daily.map((d: { date: string }) => d.date)).toEqual([
      day(-4),
      day(-3),
      day(-2),
      day(-1),
      day(0),
    ]);
    expect(stats.daily[0].totals.impression).toBe(0);
    expect(stats.daily[1].totals).toMatchObject({ impression: 100, like: 4 });
    expect(stats.daily[2].totals).toEqual({
      impression: 0,
      view: 0,
      click: 0,
      like: 0,
      share: 0,
      comment: 0,
      follow: 0,
    });
    expect(stats.byPlatform).toEqual([
      { integrationId: 'facebook', totals: expect.objectContaining({ impression: 100, like: 4 }) },
      { integrationId: 'linkedin', totals: expect.objectContaining({ click: 2 }) },
    ]);
    expect(stats.topContent).toEqual([
      {
        contentId: launch.id,
        title: 'Launch',
        totals: expect.objectContaining({ impression: 100, like: 4, click: 2 }),
        engagementRate: 0.06,
      },
      {
        contentId: recap.id,
        title: 'Recap',
        totals: expect.objectContaining({ share: 1 }),
        engagementRate: 0,
      },
    ]);
  });

  it('adds batches to the same daily counts, concurrent ones included (no lost update)', async () => {
    const { token } = await h.newAccount('Concurrent', 'admin@concurrent.test');
    const post = await createPost(h, { title: 'Busy' }, token);
    const batch = [
      { type: 'view', count: 2 },
      { type: 'view', contentId: post.id, integrationId: 'facebook' },
      { type: 'view', contentId: post.id },
    ];
    const answers = await Promise.all(Array.from({ length: 10 }, () => record(batch, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const { json } = await h.call('GET', '/api/analytics/stats', { token });
    expect(json.data.totals.view).toBe(40);
    expect(json.data.byPlatform).toEqual([
      { integrationId: 'facebook', totals: expect.objectContaining({ view: 10 }) },
    ]);
    expect(json.data.topContent[0].totals.view).toBe(20);
  });

  it('defaults to the last 30 days, with zeros when nothing happened', async () => {
    const { token } = await h.newAccount('Quiet', 'admin@quiet.test');
    const { json } = await h.call('GET', '/api/analytics/stats', { token });
    expect(json.data.to).toBe(day(0));
    expect(json.data.from).toBe(day(-29));
    expect(json.data.daily).toHaveLength(30);
    expect(json.data.engagementRate).toBe(0);
    expect(json.data.byPlatform).toEqual([]);
    expect(json.data.topContent).toEqual([]);
  });

  it('ranks at most 10 posts, most engagement first', async () => {
    const { token } = await h.newAccount('Top', 'admin@top.test');
    const events = [];
    for (let i = 1; i <= 12; i++) {
      const post = await createPost(h, { title: `P${i}` }, token);
      events.push({ type: 'like', contentId: post.id, count: i });
    }
    expect((await record(events, token)).status).toBe(201);
    const { json } = await h.call('GET', '/api/analytics/stats', { token });
    expect(json.data.topContent.map((c: { title: string }) => c.title)).toEqual([
      'P12',
      'P11',
      'P10',
      'P9',
      'P8',
      'P7',
      'P6',
      'P5',
      'P4',
      'P3',
    ]);
  });

  it('takes up to 366 days and refuses more, a reversed range or a bad date, naming the parameter', async () => {
    expect((await h.call('GET', '/api/analytics/stats?from=2024-01-01&to=2024-12-31')).status).toBe(
      200,
    );
    for (const [query, path] of [
      ['from=2024-01-01&to=2025-01-01', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
      ['from=2026-13-01', 'from'],
      ['to=yesterday', 'to'],
    ]) {
      const { status, json } = await h.call('GET', `/api/analytics/stats?${query}`);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(issuePaths(json), query).toEqual([path]);
    }
  });

  it('answers the ends of the calendar: the last days of year 9999 and the first of year 1', async () => {
    // The day after 9999-12-31 prints as +010000-01-01: a loop comparing days as text never
    // ended, and the process ran out of memory.
    const last = await h.call('GET', '/api/analytics/stats?from=9999-12-30&to=9999-12-31');
    expect(last.status).toBe(200);
    expect(last.json.data.daily.map((d: { date: string }) => d.date)).toEqual([
      '9999-12-30',
      '9999-12-31',
    ]);
    // The default 30 days up to `to` start on the first day there is (year 0 is no year).
    const first = await h.call('GET', '/api/analytics/stats?to=0001-01-05');
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ from: '0001-01-01', to: '0001-01-05' });
    expect(first.json.data.daily).toHaveLength(5);
    const post = await createPost(h, { title: 'At the end' });
    const content = await h.call('GET', `/api/analytics/content/${post.id}?to=9999-12-31`);
    expect(content.status).toBe(200);
    expect(content.json.data.daily).toHaveLength(30);
  });
});

describe('GET /api/analytics/content/{id}', () => {
  it('answers the figures of one post only', async () => {
    const { token } = await h.newAccount('Per post', 'admin@perpost.test');
    const one = await createPost(h, { title: 'One' }, token);
    const two = await createPost(h, { title: 'Two' }, token);
    await record(
      [
        { type: 'impression', contentId: one.id, count: 50, integrationId: 'facebook' },
        { type: 'comment', contentId: one.id, count: 5, integrationId: 'facebook' },
        { type: 'impression', contentId: two.id, count: 999 },
      ],
      token,
    );
    const { status, json } = await h.call('GET', `/api/analytics/content/${one.id}`, { token });
    expect(status).toBe(200);
    expect(json.data.totals).toMatchObject({ impression: 50, comment: 5 });
    expect(json.data.engagementRate).toBe(0.1);
    expect(json.data.daily.at(-1).totals).toMatchObject({ impression: 50, comment: 5 });
    expect(json.data.byPlatform).toEqual([
      { integrationId: 'facebook', totals: expect.objectContaining({ impression: 50 }) },
    ]);
    expect(json.data.topContent).toEqual([
      { contentId: one.id, title: 'One', totals: json.data.totals, engagementRate: 0.1 },
    ]);
  });

  it('is 404 for a post of another account, a missing or a malformed id', async () => {
    const theirs = await createPost(h, { title: 'Theirs' }, other.token);
    for (const id of [theirs.id, 'post_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nope']) {
      const { status, json } = await h.call('GET', `/api/analytics/content/${id}`);
      expect(status).toBe(404);
      expect(json.error.code).toBe('resource_not_found');
    }
  });
});

describe('tenancy, scopes and roles', () => {
  it('keeps accounts apart: B naming A’s post moves nothing of A’s', async () => {
    const a = await h.newAccount('Tenant A', 'admin@tenant-a.test');
    const b = await h.newAccount('Tenant B', 'admin@tenant-b.test');
    const post = await createPost(h, { title: 'A post' }, a.token);
    await record([{ type: 'like', contentId: post.id }], a.token);
    const refused = await record([{ type: 'like', contentId: post.id, count: 100 }], b.token);
    expect(refused.status).toBe(400);
    expect(issuePaths(refused.json)).toEqual(['events[0].contentId']);
    await record([{ type: 'like', count: 7 }], b.token);
    const aStats = await h.call('GET', '/api/analytics/stats', { token: a.token });
    expect(aStats.json.data.totals.like).toBe(1);
    const aPost = await h.call('GET', `/api/analytics/content/${post.id}`, { token: a.token });
    expect(aPost.json.data.totals.like).toBe(1);
    const aEvents = await h.call('GET', '/api/analytics/events', { token: a.token });
    expect(aEvents.json.meta.pagination.total).toBe(1);
    const bStats = await h.call('GET', '/api/analytics/stats', { token: b.token });
    expect(bStats.json.data.totals.like).toBe(7);
  });

  it('needs analytics:read to read and analytics:write to record; no other scope stands in', async () => {
    const reader = (await h.keyFor(h.main.adminId, ['analytics:read'])).secret;
    const writer = (await h.keyFor(h.main.adminId, ['analytics:write'])).secret;
    const wide = (
      await h.keyFor(h.main.adminId, ['read', 'write', 'content:read', 'content:write'])
    ).secret;
    for (const path of ['/api/analytics/stats', '/api/analytics/events']) {
      expect((await h.call('GET', path, { token: reader })).status).toBe(200);
      for (const token of [writer, wide]) {
        const { status, json } = await h.call('GET', path, { token });
        expect(status).toBe(403);
        expect(json.error.code).toBe('insufficient_scope');
      }
    }
    expect((await record([{ type: 'view' }], writer)).status).toBe(201);
    for (const token of [reader, wide]) {
      const { status, json } = await record([{ type: 'view' }], token);
      expect(status).toBe(403);
      expect(json.error.code).toBe('insufficient_scope');
    }
    expect((await h.call('GET', '/api/analytics/stats', { token: null })).status).toBe(401);
  });

  it('serves members as well as admins (no role rule)', async () => {
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@analytics.test', password: 'a-long-password' },
    });
    const { secret } = await h.keyFor(created.json.id, ['analytics:read', 'analytics:write']);
    expect((await record([{ type: 'view' }], secret)).status).toBe(201);
    expect((await h.call('GET', '/api/analytics/stats', { token: secret })).status).toBe(200);
  });
});

describe('large counters', () => {
  it('counts past 2^31 − 1 in one day and reads the sums back exactly', async () => {
    const { token, accountId } = await h.newAccount('Big counts', 'admin@big-counts.test');
    const post = await createPost(h, { title: 'Viral' }, token);
    const batch = Array.from({ length: 1000 }, () => ({
      type: 'impression',
      contentId: post.id,
      integrationId: 'facebook',
      count: 1_000_000,
    }));
    // 3 × 10^9 for one type, day, post and platform: past 2^31 − 1 at the third batch.
    for (let i = 0; i < 3; i++) expect((await record(batch, token)).status).toBe(201);
    const { status, json } = await h.call('GET', '/api/analytics/stats', { token });
    expect(status).toBe(200);
    expect(json.data.totals.impression).toBe(3_000_000_000);
    expect(json.data.byPlatform).toEqual([
      { integrationId: 'facebook', totals: expect.objectContaining({ impression: 3e9 }) },
    ]);
    expect(json.data.topContent[0].totals.impression).toBe(3e9);
    const perPost = await h.call('GET', `/api/analytics/content/${post.id}`, { token });
    expect(perPost.json.data.totals.impression).toBe(3e9);
    expect(await eventsIn(accountId)).toBe(3000);
  });

  it('refuses, 400 on events, a batch that would pass the daily cap, and records none of it', async () => {
    const { token, accountId } = await h.newAccount('Capped', 'admin@capped-counts.test');
    expect((await record([{ type: 'like', integrationId: 'facebook' }], token)).status).toBe(201);
    // A day already near the cap (10^12), as years of syncs could make it.
    await h.db.execute(
      sql`update analytics_daily_by_platform set "like" = ${MAX_DAILY_COUNT - 5}
          where account_id = ${accountId}`,
    );
    const refused = await record([{ type: 'like', integrationId: 'facebook', count: 10 }], token);
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('validation_error');
    expect(refused.json.error.details.issues).toEqual([
      { path: 'events', message: expect.stringMatching(/past 1,000,000,000,000/) },
    ]);
    expect(await eventsIn(accountId)).toBe(1);
    // Up to the cap is fine, and the stats read it as a safe integer.
    expect(
      (await record([{ type: 'like', integrationId: 'facebook', count: 5 }], token)).status,
    ).toBe(201);
    const { json } = await h.call('GET', '/api/analytics/stats', { token });
    expect(json.data.totals.like).toBe(MAX_DAILY_COUNT);
    expect(Number.isSafeInteger(json.data.totals.like)).toBe(true);
  });
});
