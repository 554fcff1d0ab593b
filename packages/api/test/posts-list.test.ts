import { posts, eq } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';

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
  it("lists the account's posts newest first with §5 pagination", async () => {
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
    });
  });

  it('pages, answers an empty page past the end, and refuses out-of-range limits', async () => {
    const page2 = await list('?limit=3&page=2');
    expect(page2.json.data).toHaveLength(1);
    expect(page2.json.meta.pagination).toMatchObject({ count: 1, perPage: 3, totalPages: 2 });
    const past = await list('?limit=3&page=9');
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.pagination.total).toBe(4);
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?limit=1.5']) {
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
  });
});
