import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, mediaOf } from './posts-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
});
afterAll(() => h.close());

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /api/content/posts', () => {
  it('answers 201 in the general envelope with every field of a post and draft defaults (docs/posts-and-scheduler.md)', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts', {
      body: { title: 'Hello', id: 'post_mine', createdAt: '2000-01-01T00:00:00.000Z' },
    });
    expect(status).toBe(201);
    expect(json.success).toBe(true);
    expect(Object.keys(json.data).sort()).toEqual(
      [
        'authorId',
        'content',
        'createdAt',
        'id',
        'mediaIds',
        'nextOccurrences',
        'publishedAt',
        'recurrence',
        'recurrenceOf',
        'rejection',
        'scheduledAt',
        'status',
        'tags',
        'targets',
        'title',
        'updatedAt',
      ].sort(),
    );
    expect(json.data).toMatchObject({
      title: 'Hello',
      content: '',
      status: 'draft',
      tags: [],
      mediaIds: [],
      scheduledAt: null,
      publishedAt: null,
      rejection: null,
      authorId: h.main.adminId,
    });
    expect(json.data.id).toMatch(/^post_[0-9A-Z]{26}$/);
    expect(json.data.createdAt).toMatch(TIMESTAMP);
    expect(json.data.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('trims tags and drops duplicates', async () => {
    const post = await createPost(h, { title: 'T', tags: [' news ', 'news', 'launch', 'launch '] });
    expect(post.tags).toEqual(['news', 'launch']);
  });

  it('refuses out-of-limit fields with validation_error naming each', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(301) }, 'title'],
      [{ title: 'x', content: 'x'.repeat(50_001) }, 'content'],
      [{ title: 'x', tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }, 'tags'],
      [{ title: 'x', tags: ['x'.repeat(51)] }, 'tags[0]'],
      [{ title: 'x', tags: ['  '] }, 'tags[0]'],
      [{ title: 'x', status: 'live' }, 'status'],
      [{ title: 'a\u0000b' }, 'title'],
      [{ title: 'x', tags: ['a\u0000'] }, 'tags[0]'],
    ];
    for (const [body, path] of cases) {
      const { status, json } = await h.call('POST', '/api/content/posts', { body });
      expect(status, path).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
  });

  it('keeps mediaIds in the order given, and refuses media of another account as unknown', async () => {
    const [a, b] = [await mediaOf(h, h.main.accountId), await mediaOf(h, h.main.accountId)];
    const post = await createPost(h, { title: 'M', mediaIds: [b, a] });
    expect(post.mediaIds).toEqual([b, a]);
    const foreign = await mediaOf(h, other.accountId);
    for (const mediaIds of [[a, foreign], ['med_missing'], [a, a]]) {
      const { status, json } = await h.call('POST', '/api/content/posts', {
        body: { title: 'M', mediaIds },
      });
      expect(status).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues[0].path).toMatch(/^mediaIds/);
    }
    const replaced = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { mediaIds: [a] },
    });
    expect(replaced.json.data.mediaIds).toEqual([a]);
  });

  it('does the work once for a retried Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'post-once-1' };
    const body = { title: 'Once' };
    const first = await h.call('POST', '/api/content/posts', { body, headers });
    const again = await h.call('POST', '/api/content/posts', { body, headers });
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
    const list = await h.call('GET', '/api/content/posts?q=Once');
    expect(list.json.meta.pagination.total).toBe(1);
  });
});

describe('GET, PUT, DELETE /api/content/posts/{id}', () => {
  it('PUT is a partial update', async () => {
    const post = await createPost(h, { title: 'Old', content: 'Body', tags: ['a'] });
    const { status, json } = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { title: 'New' },
    });
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ title: 'New', content: 'Body', tags: ['a'] });
    expect(Date.parse(json.data.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(post.updatedAt as string),
    );
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json).toEqual({ success: true, data: json.data });
  });

  it('DELETE answers 204, then the post is gone', async () => {
    const post = await createPost(h, { title: 'Bye' });
    const deleted = await h.call('DELETE', `/api/content/posts/${post.id}`);
    expect(deleted.status).toBe(204);
    expect((await h.call('GET', `/api/content/posts/${post.id}`)).status).toBe(404);
  });

  it("treats another account's post and a malformed id as unknown (404)", async () => {
    const foreign = await createPost(h, { title: 'Theirs' }, other.token);
    for (const id of [foreign.id, 'post_nope', '%E2%9C%93', 'x'.repeat(300)]) {
      for (const [method, body] of [['GET'], ['PUT', { title: 'Mine' }], ['DELETE']] as const) {
        const { status, json } = await h.call(method, `/api/content/posts/${id}`, { body });
        expect(status, `${method} ${id}`).toBe(404);
        expect(json.error.code).toBe('resource_not_found');
      }
    }
    const still = await h.call('GET', `/api/content/posts/${foreign.id}`, { token: other.token });
    expect(still.json.data.title).toBe('Theirs');
  });
});

describe('scopes', () => {
  it('reads need content:read and writes need content:write', async () => {
    const post = await createPost(h, { title: 'Scoped' });
    const reader = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
    const writer = (await h.keyFor(h.main.adminId, ['content:write'])).secret;
    const wide = (await h.keyFor(h.main.adminId, ['read', 'write'])).secret;
    expect((await h.call('GET', `/api/content/posts/${post.id}`, { token: reader })).status).toBe(
      200,
    );
    expect((await h.call('GET', '/api/content/posts', { token: writer })).json.error.code).toBe(
      'insufficient_scope',
    );
    for (const token of [reader, wide]) {
      const { status, json } = await h.call('POST', '/api/content/posts', {
        token,
        body: { title: 'No' },
      });
      expect(status).toBe(403);
      expect(json.error.details.requiredScopes).toEqual(['content:write']);
    }
    expect(
      (await h.call('DELETE', `/api/content/posts/${post.id}`, { token: writer })).status,
    ).toBe(204);
    expect((await h.call('GET', '/api/content/posts', { token: null })).status).toBe(401);
  });
});
