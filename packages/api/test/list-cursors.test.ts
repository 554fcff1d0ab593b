/**
 * Every list pages two ways — by page number and after a cursor (`startingAfter`) — and links
 * its next page (`Link: <…>; rel="next"`, RFC 8288): following the links from the first page
 * gives every item once, in the order the page numbers give them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { fixture, upload } from './media-fixtures';
import { channelOf } from './targets-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let postId: string;
let webhookId: string;
let otherPostId: string;

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

beforeAll(async () => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  // Many reads in a row: counted, never refused here.
  h = await startHarness({ limits: { free: { read: 1e9, write: 1e9 }, anonymous: 1e9 } });
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = async (path: string, body: unknown) => {
    const answer = await h.call('POST', path, { body });
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    return (answer.json.data ?? answer.json).id as string;
  };
  for (let i = 0; i < 3; i++) {
    webhookId = await created('/api/webhooks', {
      url: `http://127.0.0.1:9/in/${i}`,
      events: ['*'],
    });
  }
  for (let i = 0; i < 4; i++) {
    await created('/api/users', {
      name: `Member ${i}`,
      email: `member-${i}@acme.test`,
      password: 'a-long-password',
    });
  }
  // Two posts scheduled at the same time (the id breaks the tie), one later, two unscheduled.
  const at = later(60);
  for (const scheduledAt of [at, at, later(120), undefined, undefined]) {
    postId = await created('/api/content/posts', {
      title: 'Paged',
      content: 'A post',
      ...(scheduledAt && { status: 'scheduled', scheduledAt }),
    });
  }
  for (let i = 0; i < 4; i++) {
    const edit = await h.call('PUT', `/api/content/posts/${postId}`, {
      body: { content: `Edit ${i}` },
    });
    expect(edit.status).toBe(200);
  }
  for (let i = 0; i < 3; i++) {
    expect((await upload(h, fixture('pixel.png'), { filename: `p${i}.png` })).status).toBe(201);
  }
  const events = Array.from({ length: 5 }, (_, i) => ({ type: 'impression', count: i + 1 }));
  expect((await h.call('POST', '/api/analytics/events', { body: { events } })).status).toBe(201);
  for (const network of ['x', 'mastodon', 'bluesky'] as const) {
    await channelOf(h, h.main.accountId, network);
  }
  const foreign = await h.call('POST', '/api/content/posts', {
    token: other.token,
    body: { title: 'Theirs', content: 'Not Acme’s' },
  });
  otherPostId = foreign.json.data.id;
});
afterAll(async () => {
  delete process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS;
  await h.close();
});

type Item = { id: string };
const itemsOf = (json: { data: Item[] }) => json.data.map((item) => item.id);

/** The list's path and query joined with more query. */
const withQuery = (path: string, query: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** The target of a `Link: <…>; rel="next"` header, or null. */
function nextOf(link: string | null) {
  if (link === null) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match?.[1] ?? null;
}

const LISTS = () => [
  { path: '/api/users', size: 5 },
  { path: '/api/content/posts', size: 5 },
  { path: '/api/content/posts?sort=scheduledAt', size: 5 },
  { path: '/api/content/posts?status=scheduled', size: 3 },
  { path: `/api/content/posts/${postId}/activity`, size: 5 },
  { path: '/api/content/media', size: 3 },
  { path: '/api/webhooks', size: 3 },
  { path: `/api/webhooks/${webhookId}/deliveries`, size: 5 },
  { path: '/api/analytics/events', size: 5 },
  { path: '/api/content/channels', size: 3 },
];

describe('every list', () => {
  it('follows its Link headers from the first page to the last, each item once, in order', async () => {
    for (const { path, size } of LISTS()) {
      const all = await h.call('GET', withQuery(path, 'limit=100'));
      expect(all.status, path).toBe(200);
      expect(all.headers.get('link'), path).toBeNull();
      const reference = itemsOf(all.json);
      expect(reference.length, path).toBeGreaterThanOrEqual(size);

      const walked: string[] = [];
      let url: string | null = withQuery(path, 'limit=2');
      let pages = 0;
      while (url !== null && pages <= reference.length) {
        const page = await h.call('GET', url);
        expect(page.status, url).toBe(200);
        walked.push(...itemsOf(page.json));
        url = nextOf(page.headers.get('link'));
        // The path and filters stay; only the position changes.
        if (url) expect(url.startsWith(path.split('?')[0] ?? ''), url).toBe(true);
        pages++;
      }
      expect(walked, path).toEqual(reference);
      expect(pages, path).toBe(Math.ceil(reference.length / 2));
    }
  });

  it('carries nextCursor in the envelope: the last id of a page that has a next, else null', async () => {
    for (const { path } of LISTS().slice(1)) {
      const first = await h.call('GET', withQuery(path, 'limit=2'));
      const ids = itemsOf(first.json);
      expect(first.json.meta.pagination.nextCursor, path).toBe(ids.at(-1));
      const second = await h.call('GET', withQuery(path, 'limit=2&page=2'));
      const fromCursor = await h.call(
        'GET',
        withQuery(path, `limit=2&startingAfter=${ids.at(-1)}`),
      );
      expect(itemsOf(fromCursor.json), path).toEqual(itemsOf(second.json));
      expect(fromCursor.json.meta.pagination.total, path).toBe(first.json.meta.pagination.total);
      const last = await h.call('GET', withQuery(path, 'limit=100'));
      expect(last.json.meta.pagination.nextCursor, path).toBeNull();
    }
  });

  it('refuses a cursor that is not one of its items, and a cursor with a page number', async () => {
    const cases = [
      ...LISTS().map(({ path }) => ({ path, cursor: 'nope_0000' })),
      // Another account's post, as unknown as a missing one.
      { path: '/api/content/posts', cursor: otherPostId },
      { path: '/api/content/posts?sort=scheduledAt', cursor: otherPostId },
    ];
    for (const { path, cursor } of cases) {
      const { status, json } = await h.call('GET', withQuery(path, `startingAfter=${cursor}`));
      expect(status, path).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([
        'startingAfter',
      ]);
    }
    for (const { path } of LISTS()) {
      const first = await h.call('GET', withQuery(path, 'limit=1'));
      const cursor = itemsOf(first.json)[0];
      const { status, json } = await h.call(
        'GET',
        withQuery(path, `page=2&startingAfter=${cursor}`),
      );
      expect(status, path).toBe(400);
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['page']);
    }
  });

  it('takes an item the filters leave out as a place in the order', async () => {
    const all = itemsOf((await h.call('GET', '/api/content/posts?limit=100')).json);
    const drafts = itemsOf((await h.call('GET', '/api/content/posts?status=draft&limit=100')).json);
    const scheduled = all.find((id) => !drafts.includes(id)) ?? '';
    const after = await h.call('GET', `/api/content/posts?status=draft&startingAfter=${scheduled}`);
    expect(after.status).toBe(200);
    const below = all.slice(all.indexOf(scheduled) + 1);
    expect(itemsOf(after.json)).toEqual(drafts.filter((id) => below.includes(id)));
  });

  it('is another account’s own list: a foreign cursor reads nothing of Acme', async () => {
    const mine = await h.call('GET', '/api/content/posts?limit=1');
    const theirs = await h.call(
      'GET',
      `/api/content/posts?startingAfter=${itemsOf(mine.json)[0]}`,
      {
        token: other.token,
      },
    );
    expect(theirs.status).toBe(400);
  });
});
