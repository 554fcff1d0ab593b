import { eq, posts } from '@chorus/db';
import { publishDuePosts } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, eventsOf, inAnHour, mediaOf } from './posts-fixtures';
import { channelOf, setTarget } from './targets-fixtures';

/** A post's activity: who did what and when, newest first, written with each change. */

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let member: string;
let memberId: string;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  memberId = created.json.id;
  member = (await h.keyFor(memberId)).secret;
});
afterAll(() => h?.close());

type Entry = { action: string; actorId: string | null; details: Record<string, unknown> };
const activity = async (id: string, query = '', token?: string) =>
  h.call('GET', `/api/content/posts/${id}/activity${query}`, { token });
const actionsOf = async (id: string) =>
  ((await activity(id, '?limit=100')).json.data as Entry[]).map((entry) => entry.action);
const act = (id: string, action: string, body: unknown = {}, token?: string) =>
  h.call('POST', `/api/content/posts/${id}/${action}`, { body, token });
const put = (id: string, body: unknown, token?: string) =>
  h.call('PUT', `/api/content/posts/${id}`, { body, token });

describe('post activity', () => {
  it('tells the approval story newest first, with who did each step', async () => {
    await h.call('PUT', '/api/account/settings', { body: { requireApproval: true } });
    const post = await createPost(h, { title: 'Launch' }, member);
    expect((await put(post.id, { content: 'Soon', tags: ['x'] }, member)).status).toBe(200);
    const at = inAnHour();
    expect((await act(post.id, 'submit', { scheduledAt: at }, member)).status).toBe(200);
    expect((await act(post.id, 'reject', { comment: 'Add the link.' })).status).toBe(200);
    expect((await put(post.id, { content: 'Soon: https://x.test' }, member)).status).toBe(200);
    expect((await act(post.id, 'submit', { scheduledAt: at }, member)).status).toBe(200);
    expect((await act(post.id, 'approve')).status).toBe(200);

    const { status, json } = await activity(post.id, '', member);
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const entries = json.data as (Entry & { id: string; createdAt: string })[];
    expect(entries.map((e) => [e.action, e.actorId === memberId ? 'member' : 'admin'])).toEqual([
      ['approved', 'admin'],
      ['submitted', 'member'],
      ['edited', 'member'],
      ['rejected', 'admin'],
      ['submitted', 'member'],
      ['edited', 'member'],
      ['created', 'member'],
    ]);
    expect(entries[0]?.details).toEqual({ status: 'scheduled', scheduledAt: at });
    expect(entries[3]?.details).toEqual({ comment: 'Add the link.' });
    expect(entries[5]?.details).toEqual({ fields: ['content', 'tags'] });
    expect(entries[0]?.id).toMatch(/^act_/);
    expect(Date.parse(entries[0]?.createdAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(entries[6]?.createdAt ?? ''),
    );
    await h.call('PUT', '/api/account/settings', { body: { requireApproval: false } });
  });

  it('records status changes, the scheduler as nobody, and withdrawing', async () => {
    const post = await createPost(h, { title: 'S', status: 'scheduled', scheduledAt: inAnHour() });
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect((await put(post.id, { scheduledAt: later, status: 'scheduled' })).status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    expect((await put(post.id, { status: 'scheduled', scheduledAt: inAnHour() })).status).toBe(200);
    await h.db
      .update(posts)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: h.db });
    expect((await put(post.id, { status: 'archived' })).status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    const wished = inAnHour();
    expect((await act(post.id, 'submit', { scheduledAt: wished })).status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    expect(await actionsOf(post.id)).toEqual([
      'withdrawn',
      'submitted',
      'restored',
      'archived',
      'published',
      'scheduled',
      'unscheduled',
      'scheduled',
      'scheduled',
      'created',
    ]);
    const entries = (await activity(post.id, '?limit=100')).json.data as Entry[];
    expect(entries[4]?.actorId).toBeNull();
    // Unscheduling and withdrawing tell the time they dropped.
    expect(entries[6]?.details).toEqual({ scheduledAt: later });
    expect(entries[7]?.details).toEqual({ scheduledAt: later });
    expect(entries[0]?.details).toEqual({ scheduledAt: wished });
  });

  it('records an approval that publishes at once as publishing now does', async () => {
    await h.call('PUT', '/api/account/settings', { body: { requireApproval: true } });
    try {
      const byHand = await createPost(h, { title: 'By hand' });
      expect((await put(byHand.id, { status: 'published' })).status).toBe(200);
      expect(await actionsOf(byHand.id)).toEqual(['published', 'created']);

      // No targets: the approval publishes it, and says so as publish now does.
      const soon = await createPost(h, { title: 'Soon' }, member);
      expect((await act(soon.id, 'submit', {}, member)).status).toBe(200);
      expect((await act(soon.id, 'approve')).json.data.status).toBe('published');
      const entries = (await activity(soon.id)).json.data as Entry[];
      expect(entries.map((e) => [e.action, e.actorId === memberId ? 'member' : e.actorId])).toEqual(
        [
          ['published', h.main.adminId],
          ['approved', h.main.adminId],
          ['submitted', 'member'],
          ['created', 'member'],
        ],
      );
      expect(entries[1]?.details).toEqual({ status: 'published' });

      // With a target: the approval starts sending it.
      const channelId = await channelOf(h, h.main.accountId, 'mastodon');
      const out = await createPost(
        h,
        { title: 'Out', content: 'Hello', targets: [{ channelId }] },
        member,
      );
      expect((await act(out.id, 'submit', {}, member)).status).toBe(200);
      expect((await act(out.id, 'approve')).json.data.status).toBe('publishing');
      const sending = (await activity(out.id)).json.data as Entry[];
      expect(sending.map((e) => e.action)).toEqual([
        'publishing',
        'approved',
        'submitted',
        'created',
      ]);
      expect(sending[0]?.actorId).toBe(h.main.adminId);
      expect(sending[1]?.details).toEqual({ status: 'publishing' });
    } finally {
      await h.call('PUT', '/api/account/settings', { body: { requireApproval: false } });
    }
  });

  it('records publishing now, retrying and resolving a target', async () => {
    const channelId = await channelOf(h, h.main.accountId, 'mastodon');
    const post = await createPost(h, {
      title: 'Out',
      content: 'Hello',
      status: 'published',
      targets: [{ channelId }],
    });
    const targetId = (post.targets as { id: string }[])[0]?.id ?? '';
    await setTarget(h, targetId, { status: 'unconfirmed' });
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    expect(
      (
        await h.call('POST', `/api/content/posts/${post.id}/targets/${targetId}/resolve`, {
          body: { published: false },
        })
      ).status,
    ).toBe(200);
    expect((await act(post.id, 'retry')).status).toBe(200);
    expect(await actionsOf(post.id)).toEqual(['retried', 'resolved', 'publishing', 'created']);
    const [, resolved] = (await activity(post.id)).json.data as (Entry & {
      targetId: string;
      channelId: string;
    })[];
    expect(resolved).toMatchObject({ targetId, channelId, details: { published: false } });
  });

  it('has no entry for a change that was refused', async () => {
    const post = await createPost(h, { title: 'Kept' });
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await put(post.id, { status: 'scheduled', scheduledAt: past })).status).toBe(400);
    expect((await put(post.id, { status: 'archived' })).status).toBe(409);
    expect((await act(post.id, 'approve')).status).toBe(409);
    expect(await actionsOf(post.id)).toEqual(['created']);
  });

  it('has no entry, no event and the same updatedAt for a PUT that changes nothing', async () => {
    const channelId = await channelOf(h, h.main.accountId, 'mastodon');
    const media = [await mediaOf(h, h.main.accountId), await mediaOf(h, h.main.accountId)];
    const targets = [{ channelId, content: 'Own text' }];
    const post = await createPost(h, {
      title: 'Same',
      content: 'Body',
      tags: ['a', 'b'],
      mediaIds: media,
      targets,
    });
    const before = (await h.call('GET', `/api/content/posts/${post.id}`)).json.data;
    for (const body of [
      {},
      { title: 'Same' },
      { title: '  Same ' }, // trimmed, as the post keeps it
      { tags: ['a', 'b', 'a'] }, // duplicates dropped, as the post keeps them
      { content: 'Body', mediaIds: media },
      { targets },
      { recurrence: null, status: 'draft' },
    ]) {
      const res = await put(post.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json.data, JSON.stringify(body)).toEqual(before);
    }
    expect(await actionsOf(post.id)).toEqual(['created']);
    expect((await eventsOf(h, post.id)).map((e) => e.type)).toEqual(['post.created']);

    // Only the fields whose value changes are named: tags in another order are another list.
    expect((await put(post.id, { title: 'Same', tags: ['b', 'a'] })).status).toBe(200);
    expect((await put(post.id, { title: 'New', content: 'Body', targets })).status).toBe(200);
    const entries = ((await activity(post.id)).json.data as Entry[]).slice(0, 2);
    expect(entries.map((e) => e.details)).toEqual([{ fields: ['title'] }, { fields: ['tags'] }]);
    const after = (await h.call('GET', `/api/content/posts/${post.id}`)).json.data;
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect((await eventsOf(h, post.id)).map((e) => e.type)).toEqual([
      'post.created',
      'post.updated',
      'post.updated',
    ]);

    // Sent back as they are, the targets of a published post are no change, so not refused.
    await h.db.update(posts).set({ status: 'published' }).where(eq(posts.id, post.id));
    const back = await put(post.id, { targets, recurrence: null });
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect((await put(post.id, { targets: [] })).status).toBe(400);

    // A scheduled post sent its own time again is not scheduled again.
    const at = inAnHour();
    const scheduled = await createPost(h, { title: 'S', status: 'scheduled', scheduledAt: at });
    for (const body of [{}, { scheduledAt: at }, { status: 'scheduled', scheduledAt: at }]) {
      const res = await put(scheduled.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json.data.updatedAt).toBe(scheduled.updatedAt);
    }
    expect(await actionsOf(scheduled.id)).toEqual(['scheduled', 'created']);
    expect((await eventsOf(h, scheduled.id)).map((e) => e.type)).toEqual([
      'post.created',
      'post.scheduled',
    ]);
  });

  it('pages as every list does', async () => {
    const post = await createPost(h, { title: 'Paged' });
    for (const title of ['a', 'b', 'c', 'd']) await put(post.id, { title });
    const { json } = await activity(post.id, '?page=2&limit=2');
    expect(json.meta.pagination).toEqual({
      total: 5,
      count: 2,
      perPage: 2,
      currentPage: 2,
      totalPages: 3,
      nextCursor: json.data[1].id,
    });
    expect((json.data as Entry[]).map((e) => e.action)).toEqual(['edited', 'edited']);
    const past = await activity(post.id, '?page=9');
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.pagination.total).toBe(5);
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?page=x']) {
      const { status, json: refused } = await activity(post.id, query);
      expect(status).toBe(400);
      expect(refused.error.code).toBe('validation_error');
    }
  });

  it("treats another account's post as unknown, and needs content:read", async () => {
    const post = await createPost(h, { title: 'Ours' });
    const foreign = await activity(post.id, '', other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('resource_not_found');
    expect((await activity('post_missing')).status).toBe(404);
    const noRead = (await h.keyFor(h.main.adminId, ['content:write'])).secret;
    const refused = await activity(post.id, '', noRead);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    await h.call('DELETE', `/api/content/posts/${post.id}`);
    expect((await activity(post.id)).status).toBe(404);
  });
});
