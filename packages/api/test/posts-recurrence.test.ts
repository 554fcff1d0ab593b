import { accounts, eq, posts } from '@chorus/db';
import { publishDuePosts } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { channelOf } from './targets-fixtures';

/**
 * Recurring posts through the API: `recurrence` on create and update, checked at the edge,
 * `nextOccurrences` in the account's time zone, copies with the original's targets.
 */
let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let member: string;
let readOnly: string;
let bluesky: string;

const DAY = 86_400_000;
const tomorrow = () => new Date(Date.now() + DAY).toISOString();
const berlin = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  member = (await h.keyFor(created.json.id)).secret;
  readOnly = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  await h.db
    .update(accounts)
    .set({ timeZone: 'Europe/Berlin' })
    .where(eq(accounts.id, h.main.accountId));
});
afterAll(() => h.close());

const create = (body: Record<string, unknown>, token?: string) =>
  h.call('POST', '/api/content/posts', { body: { title: 'Weekly', ...body }, token });

describe('recurrence on posts', () => {
  it('schedules a weekly series whose next five occurrences keep the local time', async () => {
    const scheduledAt = tomorrow();
    const res = await create({
      status: 'scheduled',
      scheduledAt,
      recurrence: 'rrule:freq=weekly;count=10',
      content: 'Weekly news',
      targets: [{ channelId: bluesky }],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const post = res.json.data;
    expect(post).toMatchObject({ recurrence: 'FREQ=WEEKLY;COUNT=10', recurrenceOf: null });
    expect(post.nextOccurrences).toHaveLength(5);
    expect(post.nextOccurrences[0]).toBe(new Date(scheduledAt).toISOString());
    expect(new Set(post.nextOccurrences.map(berlin))).toEqual(new Set([berlin(scheduledAt)]));
    const read = await h.call('GET', `/api/content/posts/${post.id}`, { token: readOnly });
    expect(read.json.data.nextOccurrences).toEqual(post.nextOccurrences);
    const plain = await create({ title: 'Once' });
    expect(plain.json.data).toMatchObject({ recurrence: null, nextOccurrences: [] });
    const ids = async (query: string) =>
      (await h.call('GET', `/api/content/posts?${query}`)).json.data.map(
        (p: { id: string }) => p.id,
      );
    expect(await ids('recurring=true')).toEqual([post.id]);
    expect(await ids('recurring=false')).toContain(plain.json.data.id);
    expect(await ids('recurring=false')).not.toContain(post.id);
    expect((await h.call('GET', '/api/content/posts?recurring=yes')).status).toBe(400);
  });

  it('refuses rules outside the subset, naming recurrence, and writes nothing', async () => {
    for (const recurrence of [
      'FREQ=MINUTELY',
      'FREQ=HOURLY;COUNT=3',
      'FREQ=DAILY;BYHOUR=9',
      'FREQ=DAILY;COUNT=1001',
      'FREQ=DAILY;COUNT=2;UNTIL=20270101',
      'FREQ=WEEKLY;BYDAY=1MO',
      'FREQ=DAILY;UNTIL=20270231',
      'DTSTART=20260101T000000Z;FREQ=DAILY',
      'not a rule',
      'x'.repeat(201),
    ]) {
      const res = await create({ status: 'scheduled', scheduledAt: tomorrow(), recurrence });
      expect(res.status, recurrence).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.details.issues[0].path).toBe('recurrence');
    }
  });

  it('copies the series at its occurrence with its targets, and the copy publishes', async () => {
    const res = await create({
      status: 'scheduled',
      scheduledAt: tomorrow(),
      recurrence: 'FREQ=DAILY',
      content: 'Every day',
      targets: [{ channelId: bluesky, content: 'Every day, on Bluesky' }],
    });
    const id = res.json.data.id as string;
    // Its start comes: as if a day went by.
    const past = new Date(Date.now() - 1000);
    await h.db
      .update(posts)
      .set({ scheduledAt: past, nextOccurrenceAt: past })
      .where(eq(posts.id, id));
    await publishDuePosts({ db: h.db });
    const list = await h.call('GET', '/api/content/posts?limit=100');
    const copy = list.json.data.find((p: { recurrenceOf: string | null }) => p.recurrenceOf === id);
    expect(copy).toMatchObject({
      status: 'publishing',
      content: 'Every day',
      recurrence: null,
      nextOccurrences: [],
      scheduledAt: past.toISOString(),
    });
    expect(copy.targets).toMatchObject([{ channelId: bluesky, content: 'Every day, on Bluesky' }]);
    const series = (await h.call('GET', `/api/content/posts/${id}`)).json.data;
    expect(series.status).toBe('scheduled');
    expect(Date.parse(series.nextOccurrences[0])).toBe(past.getTime() + DAY);
    const activity = await h.call('GET', `/api/content/posts/${id}/activity`);
    expect(activity.json.data[0]).toMatchObject({
      action: 'repeated',
      actorId: null,
      details: { copyId: copy.id, occurrenceAt: past.toISOString() },
    });
  });

  it('keeps to scopes, roles and accounts', async () => {
    const mine = (await create({ title: 'Mine' })).json.data.id as string;
    const put = (id: string, token?: string) =>
      h.call('PUT', `/api/content/posts/${id}`, { body: { recurrence: 'FREQ=DAILY' }, token });
    expect((await put(mine, readOnly)).json.error.code).toBe('insufficient_scope');
    expect((await put(mine, other.token)).status).toBe(404);
    // A member may give a draft a rule; scheduling it while approval is on is an admin's.
    const draft = await create({ title: 'Draft', recurrence: 'FREQ=DAILY' }, member);
    expect(draft.status).toBe(201);
    await h.call('PUT', '/api/account/settings', { body: { requireApproval: true } });
    try {
      const scheduled = await create(
        { status: 'scheduled', scheduledAt: tomorrow(), recurrence: 'FREQ=DAILY' },
        member,
      );
      expect(scheduled.status).toBe(403);
      expect(scheduled.json.error.code).toBe('approval_required');
      // Approved, a series is scheduled (never published itself) with its occurrences.
      const submitted = await h.call('POST', `/api/content/posts/${draft.json.data.id}/submit`, {
        body: { scheduledAt: tomorrow() },
        token: member,
      });
      expect(submitted.status).toBe(200);
      const approved = await h.call('POST', `/api/content/posts/${draft.json.data.id}/approve`, {
        body: {},
      });
      expect(approved.json.data.status).toBe('scheduled');
      expect(approved.json.data.nextOccurrences).toHaveLength(5);
    } finally {
      await h.call('PUT', '/api/account/settings', { body: { requireApproval: false } });
    }
  });

  it('answers the same fields over tRPC', async () => {
    const handle = createTrpcHandler({ getDatabase: async () => h.database });
    const created = await create({
      status: 'scheduled',
      scheduledAt: tomorrow(),
      recurrence: 'FREQ=MONTHLY;BYDAY=1MO',
    });
    const input = encodeURIComponent(JSON.stringify({ id: created.json.data.id }));
    const res = await handle(
      new Request(`http://localhost/api/trpc/posts.get?input=${input}`, {
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    const body = (await res.json()) as { result: { data: { data: Record<string, unknown> } } };
    expect(body.result.data.data).toMatchObject({
      recurrence: 'FREQ=MONTHLY;BYDAY=1MO',
      nextOccurrences: created.json.data.nextOccurrences,
    });
  });
});
