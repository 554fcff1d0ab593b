import { posts, eq } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory } from '../src';
import { startHarness, type Harness } from './harness';
import { createPost, inAnHour } from './posts-fixtures';
import { channelOf } from './targets-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
const titles = (json: { data: { title: string }[] }) => json.data.map((p) => p.title).sort();

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  await createPost(h, { title: '100% real', tags: ['promo'] });
  await createPost(h, { title: '100 real', content: 'a_b', tags: ['promo', 'news'] });
  await createPost(h, { title: 'axb', content: 'a\\b' });
  await createPost(h, { title: 'Crème brûlée 🍮', status: 'published', tags: ['café'] });
  await createPost(h, { title: 'Theirs 100% real', tags: ['promo'] }, other.token);
});
afterAll(() => h.close());

const list = (query: string) => h.call('GET', `/api/content/posts${query}`);

describe('GET /api/content/posts', () => {
  it("lists the account's posts newest first with the API's pagination (docs/api.md)", async () => {
    const { status, json } = await list('');
    expect(status).toBe(200);
    expect(json.data.map((p: { title: string }) => p.title)).toEqual([
      'Crème brûlée 🍮',
      'axb',
      '100 real',
      '100% real',
    ]);
    expect(json.meta.pagination).toEqual({
      total: 4,
      count: 4,
      perPage: 25,
      currentPage: 1,
      totalPages: 1,
      nextCursor: null,
    });
  });

  it('pages, answers an empty page past the end, and refuses out-of-range limits', async () => {
    const page2 = await list('?limit=3&page=2');
    expect(page2.json.data).toHaveLength(1);
    expect(page2.json.meta.pagination).toMatchObject({ count: 1, perPage: 3, totalPages: 2 });
    const past = await list('?limit=3&page=9');
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.pagination.total).toBe(4);
    for (const query of [
      '?limit=101',
      '?limit=0',
      '?page=0',
      '?limit=1.5',
      '?limit=2.00',
      '?page=1.0',
    ]) {
      expect((await list(query)).status, query).toBe(400);
    }
    expect((await list('?limit=100')).status).toBe(200);
  });

  it('treats % and _ in q as plain text, and \\ too', async () => {
    expect(titles((await list('?q=100%25')).json)).toEqual(['100% real']);
    expect(titles((await list('?q=a_b')).json)).toEqual(['100 real']);
    expect(titles((await list('?q=a%5Cb')).json)).toEqual(['axb']);
    expect(titles((await list('?q=REAL')).json)).toEqual(['100 real', '100% real']);
  });

  it('finds unicode text and filters by status and tag', async () => {
    expect(titles((await list(`?q=${encodeURIComponent('brûlée 🍮')}`)).json)).toEqual([
      'Crème brûlée 🍮',
    ]);
    expect(titles((await list('?status=published')).json)).toEqual(['Crème brûlée 🍮']);
    expect(titles((await list(`?tag=${encodeURIComponent('café')}`)).json)).toEqual([
      'Crème brûlée 🍮',
    ]);
    expect(titles((await list('?tag=news')).json)).toEqual(['100 real']);
    expect(titles((await list('?tag=promo&q=%25')).json)).toEqual(['100% real']);
    expect((await list('?status=live')).status).toBe(400);
    expect((await list('?q=a%00b')).status).toBe(400);
  });

  it('sorts by scheduledAt on request: what goes out next first', async () => {
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    // Created first, sent first: newest-first and soonest-first disagree.
    const sooner = await createPost(h, {
      title: 'Sooner',
      status: 'scheduled',
      scheduledAt: at(30),
    });
    const later = await createPost(h, { title: 'Later', status: 'scheduled', scheduledAt: at(90) });
    const next = await list('?status=scheduled&sort=scheduledAt');
    expect(next.json.data.map((p: { id: string }) => p.id)).toEqual([sooner.id, later.id]);
    const newest = await list('?status=scheduled');
    expect(newest.json.data.map((p: { id: string }) => p.id)).toEqual([later.id, sooner.id]);
    const unscheduledLast = await list('?sort=scheduledAt&limit=100');
    expect(unscheduledLast.json.data.slice(0, 2).map((p: { id: string }) => p.id)).toEqual([
      sooner.id,
      later.id,
    ]);
    expect((await list('?sort=createdAt')).status).toBe(400);
    await h.call('DELETE', `/api/content/posts/${later.id}`);
    await h.call('DELETE', `/api/content/posts/${sooner.id}`);
  });

  it('filters createdAt by from and to, both inclusive', async () => {
    const post = await createPost(h, { title: 'Dated' });
    await h.db
      .update(posts)
      .set({ createdAt: new Date('2020-05-01T00:00:00.000Z') })
      .where(eq(posts.id, post.id));
    expect(titles((await list('?to=2020-05-01T00:00:00.000Z')).json)).toEqual(['Dated']);
    expect(
      titles((await list('?from=2020-05-01T00:00:00.000Z&to=2020-06-01T00:00:00Z')).json),
    ).toEqual(['Dated']);
    expect((await list('?from=2020-05-01T00:00:00.001Z&q=Dated')).json.data).toEqual([]);
    expect((await list('?from=2021-01-01T00:00:00Z&to=2020-01-01T00:00:00Z')).status).toBe(400);
    expect((await list('?from=yesterday')).status).toBe(400);
    // A plain date is its whole UTC day, on either side.
    expect(titles((await list('?from=2020-05-01&to=2020-05-01')).json)).toEqual(['Dated']);
    expect(titles((await list('?to=2020-05-01')).json)).toEqual(['Dated']);
    expect((await list('?from=2020-05-02&q=Dated')).json.data).toEqual([]);
    expect((await list('?to=2020-04-30&q=Dated')).json.data).toEqual([]);
    const reversed = await list('?from=2020-05-02&to=2020-05-01');
    expect(reversed.status).toBe(400);
    expect(reversed.json.error.details.issues[0].path).toBe('from');
  });
});

describe('GET /api/content/posts by publishing times', () => {
  type Listed = {
    id: string;
    title: string;
    scheduledAt: string | null;
    publishedAt: string | null;
  };
  const MARCH = 'scheduledFrom=2031-03-01T00:00:00.000Z&scheduledTo=2031-03-31T23:59:59.999Z';
  const JUNE = 'publishedFrom=2019-06-01T00:00:00.000Z&publishedTo=2019-06-30T23:59:59.999Z';
  let theirs: { scheduled: string; published: string };

  /** A post in `status` with its times set as given (written directly: they lie in the past). */
  async function timed(
    title: string,
    status: 'scheduled' | 'published' | 'archived',
    times: { scheduledAt?: string; publishedAt?: string; tags?: string[] },
    token?: string,
  ) {
    const created = await createPost(
      h,
      status === 'scheduled'
        ? { title, status, scheduledAt: inAnHour(), tags: times.tags }
        : { title, status: 'published', tags: times.tags },
      token,
    );
    await h.db
      .update(posts)
      .set({
        status,
        scheduledAt: times.scheduledAt ? new Date(times.scheduledAt) : null,
        publishedAt: times.publishedAt ? new Date(times.publishedAt) : null,
      })
      .where(eq(posts.id, created.id));
    return created.id;
  }

  beforeAll(async () => {
    await timed('S before', 'scheduled', { scheduledAt: '2031-02-28T23:59:59.999Z' });
    await timed('S first', 'scheduled', { scheduledAt: '2031-03-01T00:00:00.000Z' });
    await timed('S mid', 'scheduled', { scheduledAt: '2031-03-15T12:00:00.000Z', tags: ['mid'] });
    await timed('S last', 'scheduled', { scheduledAt: '2031-03-31T23:59:59.999Z' });
    await timed('S after', 'scheduled', { scheduledAt: '2031-04-01T00:00:00.000Z' });
    // Published from `scheduled`: it keeps its scheduledAt.
    await timed('P was scheduled', 'published', {
      scheduledAt: '2031-03-10T09:00:00.000Z',
      publishedAt: '2019-06-10T09:00:00.000Z',
    });
    await timed('P before', 'published', { publishedAt: '2019-05-31T23:59:59.999Z' });
    await timed('P first', 'published', { publishedAt: '2019-06-01T00:00:00.000Z' });
    await timed('P last', 'published', { publishedAt: '2019-06-30T23:59:59.999Z' });
    await timed('P after', 'published', { publishedAt: '2019-07-01T00:00:00.000Z' });
    // Archived posts keep their publishedAt.
    await timed('A archived', 'archived', { publishedAt: '2019-06-20T00:00:00.000Z' });
    theirs = {
      scheduled: await timed(
        'Theirs scheduled',
        'scheduled',
        { scheduledAt: '2031-03-15T12:00:00.000Z' },
        other.token,
      ),
      published: await timed(
        'Theirs published',
        'published',
        { publishedAt: '2019-06-15T00:00:00.000Z' },
        other.token,
      ),
    };
  });

  it('takes a plain date as the whole UTC day: a start from its first instant, an end through its last', async () => {
    // The posts on the month's edges (00:00:00.000 and 23:59:59.999) are in; the ones a
    // millisecond outside are not.
    expect(titles((await list('?scheduledFrom=2031-03-01&scheduledTo=2031-03-31')).json)).toEqual([
      'P was scheduled',
      'S first',
      'S last',
      'S mid',
    ]);
    expect(titles((await list('?publishedFrom=2019-06-01&publishedTo=2019-06-30')).json)).toEqual([
      'A archived',
      'P first',
      'P last',
      'P was scheduled',
    ]);
    // One day as both bounds is that day; a date and a timestamp mix.
    expect(titles((await list('?scheduledFrom=2031-03-31&scheduledTo=2031-03-31')).json)).toEqual([
      'S last',
    ]);
    expect(
      titles((await list('?publishedFrom=2019-06-30&publishedTo=2019-07-01T00:00:00Z')).json),
    ).toEqual(['P after', 'P last']);
    // The same day in both bounds is not reversed; the day after is.
    expect((await list('?scheduledFrom=2031-03-02&scheduledTo=2031-03-01')).status).toBe(400);
    // Year 0 does not exist in the database: refused, never a 500.
    for (const query of ['?from=0000-01-01', '?to=0000-12-31', '?to=0001-01-01T00:00:00%2B01:00']) {
      const { status, json } = await list(query);
      expect(status, query).toBe(400);
      expect(json.error.details.issues[0].message).toBe(
        'The year must be from 0001 to 9999 (in UTC).',
      );
    }
    expect((await list('?from=0001-01-01&to=9999-12-31')).status).toBe(200);
  });

  it('bounds scheduledAt with scheduledFrom and scheduledTo, both inclusive to the millisecond', async () => {
    const march = ['P was scheduled', 'S first', 'S last', 'S mid'];
    expect(titles((await list(`?${MARCH}`)).json)).toEqual(march);
    // One millisecond inside each edge leaves the post on it out.
    expect(
      titles(
        (await list('?scheduledFrom=2031-03-01T00:00:00.001Z&scheduledTo=2031-03-31T23:59:59.998Z'))
          .json,
      ),
    ).toEqual(['P was scheduled', 'S mid']);
    // An offset is the same instant: 08:59:59.999 in Tokyo is 23:59:59.999 UTC.
    expect(
      titles(
        (
          await list(
            '?scheduledFrom=2031-03-31T23:59:59.999Z&scheduledTo=2031-04-01T08:59:59.999%2B09:00',
          )
        ).json,
      ),
    ).toEqual(['S last']);
    // A start equal to its end is the posts at that instant.
    expect(
      titles(
        (await list('?scheduledFrom=2031-04-01T00:00:00.000Z&scheduledTo=2031-04-01T00:00:00.000Z'))
          .json,
      ),
    ).toEqual(['S after']);
    // Each bound alone.
    expect(titles((await list('?scheduledTo=2031-02-28T23:59:59.999Z')).json)).toEqual([
      'S before',
    ]);
    expect(titles((await list('?scheduledFrom=2031-04-01T00:00:00.000Z')).json)).toEqual([
      'S after',
    ]);
  });

  it('bounds publishedAt with publishedFrom and publishedTo, both inclusive to the millisecond', async () => {
    expect(titles((await list(`?${JUNE}`)).json)).toEqual([
      'A archived',
      'P first',
      'P last',
      'P was scheduled',
    ]);
    expect(
      titles(
        (await list('?publishedFrom=2019-06-01T00:00:00.001Z&publishedTo=2019-06-30T23:59:59.998Z'))
          .json,
      ),
    ).toEqual(['A archived', 'P was scheduled']);
    expect(titles((await list('?publishedTo=2019-05-31T23:59:59.999Z')).json)).toEqual([
      'P before',
    ]);
    expect(
      titles(
        (await list('?publishedFrom=2019-07-01T00:00:00.000Z&publishedTo=2020-01-01T00:00:00Z'))
          .json,
      ),
    ).toEqual(['P after']);
  });

  it('never matches a post without the timestamp a bound is on', async () => {
    const all = (await list('?limit=100')).json.data as Listed[];
    expect(all.some((p) => p.scheduledAt === null)).toBe(true);
    expect(all.some((p) => p.publishedAt === null)).toBe(true);
    for (const [field, query] of [
      ['scheduledAt', 'scheduledFrom=1970-01-01T00:00:00Z'],
      ['scheduledAt', 'scheduledTo=2999-12-31T23:59:59.999Z'],
      ['publishedAt', 'publishedFrom=1970-01-01T00:00:00Z'],
      ['publishedAt', 'publishedTo=2999-12-31T23:59:59.999Z'],
    ] as const) {
      const { json } = await list(`?${query}&limit=100`);
      const expected = all.filter((p) => p[field] !== null).map((p) => p.id);
      expect(
        json.data.map((p: Listed) => p.id),
        query,
      ).toEqual(expected);
      expect(json.meta.pagination.total, query).toBe(expected.length);
    }
  });

  it('combines with status, the other filters, sort and pagination, totals included', async () => {
    const scheduled = `?status=scheduled&${MARCH}&sort=scheduledAt&limit=2`;
    const page1 = await list(`${scheduled}&page=1`);
    expect(page1.json.data.map((p: Listed) => p.title)).toEqual(['S first', 'S mid']);
    expect(page1.json.meta.pagination).toEqual({
      total: 3,
      count: 2,
      perPage: 2,
      currentPage: 1,
      totalPages: 2,
      nextCursor: page1.json.data[1].id,
    });
    const page2 = await list(`${scheduled}&page=2`);
    expect(page2.json.data.map((p: Listed) => p.title)).toEqual(['S last']);
    expect(page2.json.meta.pagination).toMatchObject({ total: 3, count: 1, currentPage: 2 });
    const past = await list(`${scheduled}&page=3`);
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.pagination).toMatchObject({ total: 3, count: 0, totalPages: 2 });
    // Newest first by default: the creation order, whatever the times.
    expect((await list(`?${MARCH}`)).json.data.map((p: Listed) => p.title)).toEqual([
      'P was scheduled',
      'S last',
      'S mid',
      'S first',
    ]);
    expect(titles((await list(`?status=published&${JUNE}`)).json)).toEqual([
      'P first',
      'P last',
      'P was scheduled',
    ]);
    expect(titles((await list(`?status=archived&${JUNE}`)).json)).toEqual(['A archived']);
    // Both ranges at once: scheduled in March and published in June.
    expect(titles((await list(`?${MARCH}&${JUNE}`)).json)).toEqual(['P was scheduled']);
    expect(titles((await list(`?${MARCH}&tag=mid`)).json)).toEqual(['S mid']);
    expect(titles((await list(`?${MARCH}&q=last`)).json)).toEqual(['S last']);
    // And with createdAt's range: every post here was created today.
    expect((await list(`?${MARCH}&to=2020-01-01T00:00:00Z`)).json.data).toEqual([]);
    expect(titles((await list(`?${MARCH}&from=2020-01-01T00:00:00Z`)).json)).toHaveLength(4);
  });

  it('refuses a malformed bound, or a start after its end, as 400 validation_error naming it', async () => {
    for (const name of ['scheduledFrom', 'scheduledTo', 'publishedFrom', 'publishedTo']) {
      for (const value of [
        'yesterday',
        '2031-03-01T00:00:00',
        '2031-02-30T00:00:00Z',
        '2031-02-30',
        '2031-3-1',
      ]) {
        const { status, json } = await list(`?${name}=${value}`);
        expect(status, `${name}=${value}`).toBe(400);
        expect(json.success).toBe(false);
        expect(json.error.code).toBe('validation_error');
        expect(json.error.details.issues).toEqual([
          {
            path: name,
            message: 'Must be a timestamp with a zone (Z or ±hh:mm) or a date as YYYY-MM-DD.',
          },
        ]);
      }
    }
    for (const [start, end] of [
      ['scheduledFrom', 'scheduledTo'],
      ['publishedFrom', 'publishedTo'],
      ['from', 'to'],
    ]) {
      const { status, json } = await list(
        `?${start}=2031-03-01T00:00:00.001Z&${end}=2031-03-01T00:00:00.000Z`,
      );
      expect(status, start).toBe(400);
      expect(json.error).toMatchObject({
        code: 'validation_error',
        status: 400,
        message: `\`${start}\` is after \`${end}\`.`,
        details: {
          issues: [{ path: start, message: `\`${start}\` must not be after \`${end}\`.` }],
        },
      });
    }
    // The same instant in another zone is not after it.
    expect(
      (await list('?publishedFrom=2019-06-01T09:00:00%2B09:00&publishedTo=2019-06-01T00:00:00Z'))
        .status,
    ).toBe(200);
    // Each reversed range is named.
    const both = await list(
      '?scheduledFrom=2031-04-01T00:00:00Z&scheduledTo=2031-03-01T00:00:00Z&publishedFrom=2019-07-01T00:00:00Z&publishedTo=2019-06-01T00:00:00Z',
    );
    expect(both.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([
      'scheduledFrom',
      'publishedFrom',
    ]);
  });

  it('takes the same bounds through the typed door (tRPC), from the same schema', async () => {
    const caller = createCallerFactory(appRouter)({
      db: h.db,
      principal: h.session(),
      requestId: 'req_test',
      origin: 'http://localhost',
      response: {},
    });
    const typed = await caller.posts.list({
      status: 'scheduled',
      scheduledFrom: '2031-03-01T00:00:00.000Z',
      scheduledTo: '2031-03-31T23:59:59.999Z',
      sort: 'scheduledAt',
    });
    const rest = await list(`?status=scheduled&${MARCH}&sort=scheduledAt`);
    expect(typed.data.map((p) => p.id)).toEqual(rest.json.data.map((p: Listed) => p.id));
    expect(typed.meta.pagination.total).toBe(3);
    await expect(
      caller.posts.list({
        publishedFrom: '2019-07-01T00:00:00.000Z',
        publishedTo: '2019-06-01T00:00:00.000Z',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', cause: { code: 'validation_error' } });
    await expect(caller.posts.list({ publishedTo: 'yesterday' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it("never shows another account's posts, and needs content:read", async () => {
    for (const range of [MARCH, JUNE]) {
      const mine = (await list(`?${range}&limit=100`)).json.data.map((p: Listed) => p.id);
      expect(mine).not.toContain(theirs.scheduled);
      expect(mine).not.toContain(theirs.published);
    }
    const theirsOnly = await h.call('GET', `/api/content/posts?${MARCH}&${JUNE}`, {
      token: other.token,
    });
    expect(theirsOnly.json.data).toEqual([]);
    const theirMarch = await h.call('GET', `/api/content/posts?${MARCH}`, { token: other.token });
    expect(theirMarch.json.data.map((p: Listed) => p.id)).toEqual([theirs.scheduled]);
    expect(theirMarch.json.meta.pagination.total).toBe(1);

    const { secret } = await h.keyFor(h.main.adminId, ['read', 'content:write']);
    const refused = await h.call('GET', `/api/content/posts?${MARCH}`, { token: secret });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect(refused.json.error.details.requiredScopes).toEqual(['content:read']);
  });
});

describe('GET /api/content/posts?channelId=', () => {
  it("lists only the posts going to that channel, and matches nothing with another account's", async () => {
    const bluesky = await channelOf(h, h.main.accountId, 'bluesky');
    const mastodon = await channelOf(h, h.main.accountId, 'mastodon');
    const theirs = await channelOf(h, other.accountId, 'bluesky');
    await createPost(h, { title: 'To Bluesky', targets: [{ channelId: bluesky }] });
    await createPost(h, {
      title: 'To both',
      targets: [{ channelId: mastodon }, { channelId: bluesky }],
    });
    await createPost(
      h,
      { title: 'Theirs to Bluesky', targets: [{ channelId: theirs }] },
      other.token,
    );
    expect(titles((await list(`?channelId=${bluesky}`)).json)).toEqual(['To Bluesky', 'To both']);
    expect(titles((await list(`?channelId=${mastodon}&q=both`)).json)).toEqual(['To both']);
    const foreign = await list(`?channelId=${theirs}`);
    expect(foreign.status).toBe(200);
    expect(foreign.json.data).toEqual([]);
    expect((await list(`?channelId=${'c'.repeat(65)}`)).status).toBe(400);
  });
});
