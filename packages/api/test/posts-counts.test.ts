import { postCounts, posts, postTagCounts, sql } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, inAnHour } from './posts-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
});
afterAll(() => h.close());

type Counts = Record<string, number>;

/** The kept counts, non-zero ones, keyed `account status` and `account tag status`. */
async function kept(): Promise<{ byStatus: Counts; byTag: Counts }> {
  const byStatus: Counts = {};
  const byTag: Counts = {};
  for (const r of await h.db.select().from(postCounts)) {
    if (r.count !== 0) byStatus[`${r.accountId} ${r.status}`] = r.count;
  }
  for (const r of await h.db.select().from(postTagCounts)) {
    if (r.count !== 0) byTag[`${r.accountId} ${r.tag} ${r.status}`] = r.count;
  }
  return { byStatus, byTag };
}

/** The same counts, counted over the posts themselves. */
async function counted(): Promise<{ byStatus: Counts; byTag: Counts }> {
  const byStatus: Counts = {};
  const byTag: Counts = {};
  for (const p of await h.db.select().from(posts)) {
    const key = `${p.accountId} ${p.status}`;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
    for (const tag of new Set(p.tags)) {
      const tagKey = `${p.accountId} ${tag} ${p.status}`;
      byTag[tagKey] = (byTag[tagKey] ?? 0) + 1;
    }
  }
  return { byStatus, byTag };
}

const expectExact = async () => expect(await kept()).toEqual(await counted());

const total = async (query: string, token?: string) => {
  const { status, json } = await h.call('GET', `/api/content/posts?limit=1${query}`, { token });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.meta.pagination.total as number;
};

describe('the posts list total, from counts kept per status and tag', () => {
  it('stays exact across create, status change, tag change, delete, archive and restore', async () => {
    const a = await createPost(h, { title: 'A', tags: ['x', 'y'] });
    const b = await createPost(h, {
      title: 'B',
      tags: ['x'],
      status: 'scheduled',
      scheduledAt: inAnHour(),
    });
    await createPost(h, { title: 'C' });
    await createPost(h, { title: 'D', tags: ['y'] }, other.token);
    await expectExact();
    expect(await total('')).toBe(3);
    expect(await total('&tag=x')).toBe(2);
    expect(await total('&status=draft&tag=x')).toBe(1);
    expect(await total('&tag=y', other.token)).toBe(1);

    await h.call('PUT', `/api/content/posts/${a.id}`, { body: { tags: ['y', 'z'] } });
    await h.call('PUT', `/api/content/posts/${b.id}`, { body: { status: 'published' } });
    await h.call('PUT', `/api/content/posts/${b.id}`, { body: { status: 'archived' } });
    await expectExact();
    expect(await total('&status=archived&tag=x')).toBe(1);
    await h.call('PUT', `/api/content/posts/${b.id}`, { body: { status: 'draft' } });
    await expectExact();
    expect(await total('&status=draft')).toBe(3);
    expect(await total('&tag=x')).toBe(1);

    expect((await h.call('DELETE', `/api/content/posts/${a.id}`)).status).toBe(204);
    await expectExact();
    expect(await total('&tag=z')).toBe(0);
    expect(await total('')).toBe(2);
  });

  it('stays exact across an import, and agrees with a count when other filters come in', async () => {
    const text = 'title,tags\nOne,"x,w"\nTwo,w\nThree,\n';
    const { status } = await h.call('POST', '/api/content/posts/import', {
      raw: text,
      contentType: 'text/csv',
    });
    expect(status).toBe(201);
    await expectExact();
    expect(await total('&tag=w')).toBe(2);
    // A text filter is counted over the posts: the same answer a kept count would give.
    expect(await total('&tag=w&q=o')).toBe(2);
    expect(await total('&q=Three')).toBe(1);
  });

  it('stays exact with concurrent writers of one account', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createPost(h, { title: `W${i}`, tags: ['c', `t${i % 3}`] }),
      ),
    );
    await Promise.all(
      created.map((post, i) =>
        i % 2
          ? h.call('PUT', `/api/content/posts/${post.id}`, { body: { status: 'published' } })
          : h.call('DELETE', `/api/content/posts/${post.id}`),
      ),
    );
    await expectExact();
    expect(await total('&tag=c')).toBe(6);
    expect(await total('&tag=c&status=published')).toBe(6);
  });

  it('takes an account’s counts with the account', async () => {
    const gone = await h.newAccount('Initech', 'admin@initech.test');
    await createPost(h, { title: 'Soon gone', tags: ['x'] }, gone.token);
    await h.db.execute(sql`delete from accounts where id = ${gone.accountId}`);
    await expectExact();
  });
});
