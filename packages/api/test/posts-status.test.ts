import { POST_STATUSES } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, eventsOf, inAnHour, postIn } from './posts-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** What a status in a body may ask for; submitting and approving are their own endpoints. */
const ALLOWED: Record<string, string[]> = {
  draft: ['scheduled', 'published'],
  pending_approval: ['draft'],
  scheduled: ['draft', 'published'],
  publishing: [],
  published: ['archived'],
  failed: ['draft', 'archived'],
  archived: ['draft'],
};

const bodyFor = (to: string) =>
  to === 'scheduled' ? { status: to, scheduledAt: inAnHour() } : { status: to };

describe('the status machine (docs/posts-and-scheduler.md)', () => {
  for (const from of POST_STATUSES) {
    for (const to of POST_STATUSES.filter((s) => s !== from)) {
      const allowed = ALLOWED[from]?.includes(to);
      it(`${from} → ${to} is ${allowed ? 'allowed' : 'refused with 409'}`, async () => {
        const post = await postIn(h, from);
        const { status, json } = await h.call('PUT', `/api/content/posts/${post.id}`, {
          body: bodyFor(to),
        });
        if (allowed) {
          expect(status).toBe(200);
          expect(json.data.status).toBe(to);
          return;
        }
        expect(status).toBe(409);
        expect(json.error).toMatchObject({
          code: 'invalid_status_transition',
          status: 409,
          details: { currentStatus: from, allowedStatuses: ALLOWED[from] },
        });
        const after = await h.call('GET', `/api/content/posts/${post.id}`);
        expect(after.json.data.status).toBe(from);
      });
    }
  }

  it('sets publishedAt when publishing and clears scheduledAt when unscheduling', async () => {
    const scheduled = await postIn(h, 'scheduled');
    const unscheduled = await h.call('PUT', `/api/content/posts/${scheduled.id}`, {
      body: { status: 'draft' },
    });
    expect(unscheduled.json.data).toMatchObject({ scheduledAt: null, publishedAt: null });
    const before = Date.now();
    const published = await h.call('PUT', `/api/content/posts/${scheduled.id}`, {
      body: { status: 'published' },
    });
    expect(Date.parse(published.json.data.publishedAt)).toBeGreaterThanOrEqual(before - 5);
  });

  it('needs a future scheduledAt to schedule (400 naming scheduledAt)', async () => {
    const draft = await postIn(h, 'draft');
    const past = new Date(Date.now() - 1000).toISOString();
    for (const body of [{ status: 'scheduled' }, { status: 'scheduled', scheduledAt: past }]) {
      const { status, json } = await h.call('PUT', `/api/content/posts/${draft.id}`, { body });
      expect(status).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toContain(
        'scheduledAt',
      );
    }
    const created = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'scheduled', scheduledAt: past },
    });
    expect(created.status).toBe(400);
    expect(created.json.error.details.issues[0].path).toBe('scheduledAt');
  });

  it('stores a scheduledAt sent with an offset as the same instant in UTC', async () => {
    const at = new Date(Date.now() + 7_200_000);
    at.setUTCMilliseconds(0);
    const local = new Date(at.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const post = await createPost(h, { title: 'tz', status: 'scheduled', scheduledAt: local });
    expect(post.scheduledAt).toBe(at.toISOString());
  });

  it('refuses a scheduledAt without a zone, and a scheduledAt on a post not being scheduled', async () => {
    const noZone = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'scheduled', scheduledAt: '2030-01-01T10:00:00' },
    });
    expect(noZone.status).toBe(400);
    const onDraft = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', scheduledAt: inAnHour() },
    });
    expect(onDraft.status).toBe(400);
    expect(onDraft.json.error.details.issues[0].path).toBe('scheduledAt');
  });

  it('takes scheduledAt: null as left out, on create and update: it changes nothing', async () => {
    // An account of its own: this file's writes would pass the main account's rate limit.
    const { token } = await h.newAccount('Initech', 'admin@initech.test');
    const put = (id: string, body: unknown) =>
      h.call('PUT', `/api/content/posts/${id}`, { body, token });
    const created = await createPost(h, { title: 'x', scheduledAt: null }, token);
    expect(created).toMatchObject({ status: 'draft', scheduledAt: null });
    const draftPut = await put(created.id, { scheduledAt: null });
    expect(draftPut.status).toBe(200);
    expect(draftPut.json.data).toEqual(created);
    // Scheduling still needs a time: null is none.
    const noTime = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'scheduled', scheduledAt: null },
      token,
    });
    expect(noTime.status).toBe(400);
    expect(noTime.json.error.details.issues).toEqual([
      { path: 'scheduledAt', message: 'A scheduled post needs scheduledAt.' },
    ]);
    // A scheduled post keeps its time: null never unschedules (status draft does).
    const at = inAnHour();
    const scheduled = await createPost(
      h,
      { title: 'S', status: 'scheduled', scheduledAt: at },
      token,
    );
    for (const body of [{ scheduledAt: null }, { title: 'Renamed', scheduledAt: null }]) {
      const res = await put(scheduled.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json.data).toMatchObject({ status: 'scheduled', scheduledAt: at });
    }
    const unscheduled = await put(scheduled.id, { status: 'draft', scheduledAt: null });
    expect(unscheduled.json.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('reschedules a scheduled post to another future time', async () => {
    const post = await postIn(h, 'scheduled');
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const { status, json } = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { scheduledAt: later },
    });
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ status: 'scheduled', scheduledAt: later });
  });

  it('creates directly as scheduled or published, but not as archived', async () => {
    const published = await createPost(h, { title: 'now', status: 'published' });
    expect(published.publishedAt).not.toBeNull();
    const { status, json } = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'archived' },
    });
    expect(status).toBe(409);
    expect(json.error.details).toMatchObject({
      currentStatus: 'draft',
      allowedStatuses: ['scheduled', 'published'],
    });
  });
});

describe('events of posts (the outbox, docs/webhooks.md)', () => {
  it('records each change with the post as the API returned it', async () => {
    const post = await createPost(h, {
      title: 'Evented',
      status: 'scheduled',
      scheduledAt: inAnHour(),
    });
    const edited = await h.call('PUT', `/api/content/posts/${post.id}`, { body: { title: 'E2' } });
    const published = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { status: 'published' },
    });
    expect(await h.call('DELETE', `/api/content/posts/${post.id}`)).toMatchObject({ status: 204 });
    const recorded = await eventsOf(h, post.id);
    expect(recorded.map((e) => e.type).sort()).toEqual(
      ['post.created', 'post.deleted', 'post.published', 'post.scheduled', 'post.updated'].sort(),
    );
    const byType = new Map(recorded.map((e) => [e.type, e.data.object]));
    expect(byType.get('post.created')).toEqual(post);
    expect(byType.get('post.scheduled')).toEqual(post);
    expect(byType.get('post.updated')).toEqual(edited.json.data);
    expect(byType.get('post.published')).toEqual(published.json.data);
    expect(byType.get('post.deleted')).toEqual(published.json.data);
  });

  it('records nothing for a refused change', async () => {
    const post = await postIn(h, 'draft');
    await h.call('PUT', `/api/content/posts/${post.id}`, { body: { status: 'archived' } });
    await h.call('PUT', `/api/content/posts/${post.id}`, { body: { mediaIds: ['med_nope'] } });
    expect((await eventsOf(h, post.id)).map((e) => e.type)).toEqual(['post.created']);
  });
});
