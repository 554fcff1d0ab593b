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
      // Ends before scheduledAt, its first occurrence.
      'FREQ=DAILY;UNTIL=20200101',
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

  it('refuses an UNTIL before scheduledAt however the two meet: update, submit', async () => {
    const scheduled = await create({
      status: 'scheduled',
      scheduledAt: tomorrow(),
      recurrence: 'FREQ=DAILY',
    });
    const put = await h.call('PUT', `/api/content/posts/${scheduled.json.data.id}`, {
      body: { recurrence: 'FREQ=WEEKLY;UNTIL=20200101T000000Z' },
    });
    expect(put.status).toBe(400);
    expect(put.json.error.details.issues[0].path).toBe('recurrence');
    const draft = await create({ recurrence: 'FREQ=DAILY;UNTIL=20200101' });
    expect(draft.status).toBe(201);
    const submit = await h.call('POST', `/api/content/posts/${draft.json.data.id}/submit`, {
      body: { scheduledAt: tomorrow() },
    });
    expect(submit.status).toBe(400);
    expect(submit.json.error.code).toBe('validation_error');
    expect(submit.json.error.details.issues[0].path).toBe('recurrence');
    const kept = await h.call('GET', `/api/content/posts/${draft.json.data.id}`);
    expect(kept.json.data.status).toBe('draft');
  });

  it('changes while a post is a draft, pending approval or scheduled, and says so otherwise', async () => {
    const submitted = (await create({ title: 'Submitted' })).json.data.id as string;
    expect(
      (await h.call('POST', `/api/content/posts/${submitted}/submit`, { body: {} })).status,
    ).toBe(200);
    const pending = await h.call('PUT', `/api/content/posts/${submitted}`, {
      body: { recurrence: 'FREQ=WEEKLY' },
    });
    expect(pending.status).toBe(200);
    expect(pending.json.data).toMatchObject({
      status: 'pending_approval',
      recurrence: 'FREQ=WEEKLY',
    });
    const publishing = (await create({ title: 'Publishing' })).json.data.id as string;
    await h.db.update(posts).set({ status: 'publishing' }).where(eq(posts.id, publishing));
    const refused = await h.call('PUT', `/api/content/posts/${publishing}`, {
      body: { recurrence: 'FREQ=DAILY' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.details.issues).toEqual([
      {
        path: 'recurrence',
        message:
          'The recurrence of a publishing post cannot change; it can while it is a draft, pending approval or scheduled.',
      },
    ]);
  });

  it('lists a monthly rule of every Monday and the second Tuesday (BYDAY=MO,2TU)', async () => {
    const res = await create({
      status: 'scheduled',
      scheduledAt: tomorrow(),
      recurrence: 'FREQ=MONTHLY;BYDAY=MO,2TU',
    });
    expect(res.status).toBe(201);
    const next = res.json.data.nextOccurrences as string[];
    expect(next).toHaveLength(5);
    expect(next[0]).toBe(res.json.data.scheduledAt);
    // After the start, only Mondays and second Tuesdays (days 8 to 14 of the month).
    const dayOfMonth = (at: string) =>
      Number(
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', day: 'numeric' }).format(
          new Date(at),
        ),
      );
    for (const at of next.slice(1)) {
      const local = berlin(at).slice(0, 3);
      const secondTuesday = local === 'Tue' && dayOfMonth(at) >= 8 && dayOfMonth(at) <= 14;
      expect(local === 'Mon' || secondTuesday, at).toBe(true);
    }
  });

  it('publishes a copy at scheduledAt even on a day its BYDAY would not pick', async () => {
    const scheduledAt = tomorrow();
    const names = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    const other = (names.indexOf(berlin(scheduledAt).slice(0, 3)) + 2) % 7;
    const res = await create({
      status: 'scheduled',
      scheduledAt,
      recurrence: `FREQ=WEEKLY;BYDAY=${names[other]?.slice(0, 2).toUpperCase()}`,
    });
    expect(res.status).toBe(201);
    const next = res.json.data.nextOccurrences as string[];
    expect(next[0]).toBe(scheduledAt);
    // Then the rule's own day, two days on (give or take a clock change) at the same time.
    expect(berlin(next[1] ?? '')).toBe(berlin(scheduledAt).replace(/^\w+/, names[other] ?? ''));
    const gap = Date.parse(next[1] ?? '') - Date.parse(scheduledAt);
    expect(Math.abs(gap - 2 * DAY)).toBeLessThanOrEqual(3_600_000);
    // Its start comes: the scheduler copies it then.
    const id = res.json.data.id as string;
    const past = new Date(Date.now() - 1000);
    await h.db
      .update(posts)
      .set({ scheduledAt: past, nextOccurrenceAt: past })
      .where(eq(posts.id, id));
    await publishDuePosts({ db: h.db });
    const list = await h.call('GET', '/api/content/posts?limit=100');
    const copies = list.json.data.filter(
      (p: { recurrenceOf: string | null }) => p.recurrenceOf === id,
    );
    expect(copies).toMatchObject([{ status: 'published', scheduledAt: past.toISOString() }]);
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
