import { accounts, channels, eq, posts, postTargets } from '@chorus/db';
import { newId } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { channelOf, setTarget } from './targets-fixtures';

/**
 * Posting slots: weekly times per channel in the account's time zone, read by every member,
 * set by admins; `schedule: "next_slot"` takes the earliest free slot all of a post's
 * channels share.
 */
let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let member: string;
let readOnly: string;
let bluesky: string;
let mastodon: string;
let foreign: string;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  member = (await h.keyFor(created.json.id)).secret;
  readOnly = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  mastodon = await channelOf(h, h.main.accountId, 'mastodon');
  foreign = await channelOf(h, other.accountId, 'bluesky');
  await h.db
    .update(accounts)
    .set({ timeZone: 'Europe/Berlin' })
    .where(eq(accounts.id, h.main.accountId));
});
afterAll(() => h.close());

const path = (id: string) => `/api/content/channels/${id}/slots`;
const putSlots = (id: string, slots: unknown, token?: string) =>
  h.call('PUT', path(id), { body: { slots }, token });

/** The weekday names of the next days, as slots at `time`: one a day for a week. */
const everyDayAt = (time: string) =>
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
    day,
    time,
  }));

const berlinTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

/** The time in Berlin `hours` from now, as a slot's `HH:MM`. */
const berlinClockIn = (hours: number) =>
  berlinTime(new Date(Date.now() + hours * 3_600_000).toISOString());

/**
 * Daily slots whose next occurrences come in this order at any time of day the tests run:
 * Bluesky's own first, in two hours, then the one both channels share, in four.
 */
const EARLIER = berlinClockIn(2);
const SHARED = berlinClockIn(4);

const createPost = (body: Record<string, unknown>, token?: string) =>
  h.call('POST', '/api/content/posts', { body: { title: 'Slot', content: 'Hi', ...body }, token });

describe('GET and PUT /api/content/channels/{id}/slots', () => {
  it('starts empty, takes an admin’s slots sorted Monday first, and lists the next ones', async () => {
    const empty = await h.call('GET', path(bluesky));
    expect(empty.status).toBe(200);
    expect(empty.json.data).toEqual({
      channelId: bluesky,
      timeZone: 'Europe/Berlin',
      slots: [],
      upcoming: [],
    });
    const put = await putSlots(bluesky, [
      { day: 'wednesday', time: '17:00' },
      { day: 'monday', time: '09:30' },
      { day: 'monday', time: '08:00' },
    ]);
    expect(put.status).toBe(200);
    expect(put.json.data.slots).toEqual([
      { day: 'monday', time: '08:00' },
      { day: 'monday', time: '09:30' },
      { day: 'wednesday', time: '17:00' },
    ]);
    const read = await h.call('GET', path(bluesky), { token: member });
    expect(read.status).toBe(200);
    expect(read.json.data.slots).toEqual(put.json.data.slots);
    const upcoming = read.json.data.upcoming as { at: string; free: boolean }[];
    expect(upcoming.length).toBeGreaterThanOrEqual(9);
    expect(upcoming.every((slot) => slot.free && Date.parse(slot.at) > Date.now())).toBe(true);
    expect(upcoming.map((slot) => berlinTime(slot.at))).toContain('09:30');
    expect([...upcoming].sort((a, b) => a.at.localeCompare(b.at))).toEqual(upcoming);
  });

  it('refuses bad slots naming the field, and keeps the old ones', async () => {
    const before = (await h.call('GET', path(bluesky))).json.data.slots;
    for (const slots of [
      [{ day: 'someday', time: '09:00' }],
      [{ day: 'monday', time: '24:00' }],
      [{ day: 'monday', time: '9:00' }],
      [
        { day: 'monday', time: '09:00' },
        { day: 'monday', time: '09:00' },
      ],
      Array.from({ length: 51 }, (_, i) => ({
        day: 'monday',
        time: `00:${String(i).padStart(2, '0')}`,
      })),
      'monday',
    ]) {
      const res = await putSlots(bluesky, slots);
      expect(res.status, JSON.stringify(slots).slice(0, 80)).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.details.issues[0].path).toMatch(/^slots/);
    }
    expect((await h.call('GET', path(bluesky))).json.data.slots).toEqual(before);
  });

  it('is the account’s: another account’s channel is 404 either way', async () => {
    expect((await h.call('GET', path(foreign))).status).toBe(404);
    expect((await putSlots(foreign, [{ day: 'monday', time: '09:00' }])).status).toBe(404);
    expect((await h.call('GET', path('chn_unknown'))).json.error.code).toBe('resource_not_found');
    const theirs = await h.call('GET', path(bluesky), { token: other.token });
    expect(theirs.status).toBe(404);
  });

  it('needs content:read to read, content:write and the admin role to change', async () => {
    expect((await h.call('GET', path(bluesky), { token: readOnly })).status).toBe(200);
    const narrow = await putSlots(bluesky, [], readOnly);
    expect(narrow.status).toBe(403);
    expect(narrow.json.error.code).toBe('insufficient_scope');
    const byMember = await putSlots(bluesky, [], member);
    expect(byMember.status).toBe(403);
    expect(byMember.json.error.code).toBe('forbidden');
    expect((await h.call('GET', path(bluesky), { token: null })).status).toBe(401);
  });
});

/** A new channel with a slot every day at `time`: its id, its next slots, it as a post's targets. */
async function dailyChannel(time: string) {
  const id = await channelOf(h, h.main.accountId, 'linkedin');
  await putSlots(id, everyDayAt(time));
  const upcoming = (await h.call('GET', path(id))).json.data.upcoming as { at: string }[];
  return { id, days: upcoming.map((slot) => slot.at), targets: [{ channelId: id }] };
}

describe('schedule: "next_slot"', () => {
  it('schedules at the earliest free slot all the channels share, the next post at the one after', async () => {
    await putSlots(bluesky, [...everyDayAt(EARLIER), ...everyDayAt(SHARED)]);
    await putSlots(mastodon, everyDayAt(SHARED));
    const targets = [{ channelId: bluesky }, { channelId: mastodon }];
    const first = await createPost({ schedule: 'next_slot', targets });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect(first.json.data.status).toBe('scheduled');
    expect(berlinTime(first.json.data.scheduledAt)).toBe(SHARED);
    const upcoming = (await h.call('GET', path(mastodon))).json.data.upcoming;
    expect(upcoming[0]).toEqual({ at: first.json.data.scheduledAt, free: false });

    const second = await createPost({ schedule: 'next_slot', targets });
    expect(berlinTime(second.json.data.scheduledAt)).toBe(SHARED);
    expect(Date.parse(second.json.data.scheduledAt) - Date.parse(first.json.data.scheduledAt)).toBe(
      86_400_000,
    );
    // Bluesky alone has an earlier slot than the shared one, and it is free.
    const alone = await createPost({ schedule: 'next_slot', targets: [{ channelId: bluesky }] });
    expect(Date.parse(alone.json.data.scheduledAt)).toBeLessThan(
      Date.parse(first.json.data.scheduledAt),
    );
  });

  it('gives two posts asking at once two different slots', async () => {
    await putSlots(mastodon, [...everyDayAt('06:05'), ...everyDayAt('12:45')]);
    const targets = [{ channelId: mastodon }];
    const answers = await Promise.all(
      [1, 2, 3].map(() => createPost({ schedule: 'next_slot', targets })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const times = answers.map((a) => a.json.data.scheduledAt);
    expect(new Set(times).size).toBe(3);
  });

  it('moves a draft to its channels’ next free slot on update', async () => {
    const draft = await createPost({ targets: [{ channelId: bluesky }] });
    expect(draft.json.data.status).toBe('draft');
    const updated = await h.call('PUT', `/api/content/posts/${draft.json.data.id}`, {
      body: { schedule: 'next_slot' },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    expect(updated.json.data.status).toBe('scheduled');
    expect([EARLIER, SHARED]).toContain(berlinTime(updated.json.data.scheduledAt));
  });

  it('never hands out a slot a series’ later occurrence holds, started or not', async () => {
    const { id, days, targets } = await dailyChannel('07:15');
    const series = await createPost({
      status: 'scheduled',
      scheduledAt: days[0],
      recurrence: 'FREQ=DAILY;COUNT=3',
      targets,
    });
    expect(series.status, JSON.stringify(series.json)).toBe(201);
    const upcoming = (await h.call('GET', path(id))).json.data.upcoming;
    expect(upcoming.slice(0, 4).map((slot: { free: boolean }) => slot.free)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    const after = await createPost({ schedule: 'next_slot', targets });
    expect(after.json.data.scheduledAt).toBe(days[3]);

    // The series started a day earlier and went out once: its next two occurrences still hold.
    const start = new Date(Date.parse(days[0] ?? '') - 86_400_000);
    await h.db
      .update(posts)
      .set({ scheduledAt: start, nextOccurrenceAt: new Date(days[0] ?? '') })
      .where(eq(posts.id, series.json.data.id));
    const freed = await createPost({ schedule: 'next_slot', targets });
    expect(freed.json.data.scheduledAt).toBe(days[2]);
  });

  it('starts a series at the first slot free at each of its occurrences', async () => {
    const { days, targets } = await dailyChannel('07:45');
    const oneOff = await createPost({ status: 'scheduled', scheduledAt: days[2], targets });
    expect(oneOff.status, JSON.stringify(oneOff.json)).toBe(201);
    // Three days in a row: from days[0] or days[1] the series would meet the post on days[2].
    const series = await createPost({
      schedule: 'next_slot',
      recurrence: 'FREQ=DAILY;COUNT=3',
      targets,
    });
    expect(series.status, JSON.stringify(series.json)).toBe(201);
    expect(series.json.data.scheduledAt).toBe(days[3]);
  });

  it('refuses without targets, without a shared slot, beside scheduledAt or another status', async () => {
    const refusals: Record<string, unknown>[] = [
      {},
      {
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
        targets: [{ channelId: bluesky }],
      },
      { status: 'published', targets: [{ channelId: bluesky }] },
    ];
    // A Monday slot at neither of Bluesky's daily times (two hours apart, they cannot be both
    // of these), whatever the time the file runs at: the two channels share no slot.
    const lone = ['03:03', '03:33'].find((time) => time !== EARLIER && time !== SHARED);
    // The refusals speak to the dashboard's users too, beside the composer's time field.
    const noChannel = await createPost({ schedule: 'next_slot' });
    expect(noChannel.json.error.details.issues).toContainEqual(
      expect.objectContaining({
        path: 'schedule',
        message: expect.stringMatching(/choose at least one channel/),
      }),
    );
    // A channel with no slots: the refusal says where to set them, in the dashboard or here.
    await putSlots(mastodon, []);
    const none = await createPost({ schedule: 'next_slot', targets: [{ channelId: mastodon }] });
    expect(none.status).toBe(400);
    expect(none.json.error.details.issues).toContainEqual(
      expect.objectContaining({
        path: 'schedule',
        message: expect.stringMatching(
          /under Integrations.*PUT \/api\/content\/channels\/\{id\}\/slots/,
        ),
      }),
    );
    await putSlots(mastodon, [{ day: 'monday', time: lone }]);
    refusals.push({ targets: [{ channelId: bluesky }, { channelId: mastodon }] });
    for (const body of refusals) {
      const res = await createPost({ schedule: 'next_slot', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(
        'schedule',
      );
    }
  });
});

describe('posting slots beside series that ended long ago', () => {
  it('answers at once, every slot free, however many ended series went to the channel', async () => {
    // A thousand Mondays from January 2000: each ended in 2019, and stays scheduled, with no
    // next occurrence. Walking each rule from its start (COUNT counts from there) at every
    // read took a tenth of a second or more a series.
    const { id, days, targets } = await dailyChannel('06:25');
    const start = new Date('2000-01-03T05:25:00Z');
    const ids = Array.from({ length: 40 }, () => newId('post'));
    await h.db.insert(posts).values(
      ids.map((postId) => ({
        id: postId,
        accountId: h.main.accountId,
        authorId: h.main.adminId,
        title: 'Ended',
        status: 'scheduled' as const,
        scheduledAt: start,
        recurrence: 'FREQ=DAILY;BYDAY=MO;COUNT=1000',
        nextOccurrenceAt: null,
      })),
    );
    await h.db.insert(postTargets).values(
      ids.map((postId) => ({
        id: newId('tgt'),
        postId,
        accountId: h.main.accountId,
        channelId: id,
        position: 0,
      })),
    );
    const began = performance.now();
    const read = await h.call('GET', path(id));
    const upcoming = read.json.data.upcoming as { free: boolean }[];
    expect(upcoming.length).toBeGreaterThan(0);
    expect(upcoming.every((slot) => slot.free)).toBe(true);
    const taken = await createPost({ schedule: 'next_slot', targets });
    expect(taken.json.data.scheduledAt).toBe(days[0]);
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});

describe('schedule: "next_slot" while the account requires approval', () => {
  it('refuses a member 403 approval_required whether or not the channels have slots', async () => {
    const slotted = await dailyChannel('08:35');
    const bare = await channelOf(h, h.main.accountId, 'linkedin');
    const settings = (requireApproval: boolean) =>
      h.call('PUT', '/api/account/settings', { body: { requireApproval } });
    expect((await settings(true)).status).toBe(200);
    try {
      for (const targets of [slotted.targets, [{ channelId: bare }]]) {
        const created = await createPost({ schedule: 'next_slot', targets }, member);
        expect(created.status, JSON.stringify(created.json)).toBe(403);
        expect(created.json.error.code).toBe('approval_required');
        const draft = await createPost({ targets }, member);
        expect(draft.status).toBe(201);
        const moved = await h.call('PUT', `/api/content/posts/${draft.json.data.id}`, {
          body: { schedule: 'next_slot' },
          token: member,
        });
        expect(moved.status, JSON.stringify(moved.json)).toBe(403);
        expect(moved.json.error.code).toBe('approval_required');
      }
    } finally {
      await settings(false);
    }
  });
});

describe('schedule: "next_slot" with a status', () => {
  it('takes scheduled or none, and refuses any other, draft included, naming schedule', async () => {
    const { days, targets } = await dailyChannel('07:45');
    const draft = (await createPost({})).json.data.id as string;
    for (const status of ['draft', 'published', 'archived', 'pending_approval']) {
      const created = await createPost({ schedule: 'next_slot', status, targets });
      const updated = await h.call('PUT', `/api/content/posts/${draft}`, {
        body: { schedule: 'next_slot', status, targets },
      });
      for (const res of [created, updated]) {
        expect(res.status, status).toBe(400);
        expect(res.json.error.code).toBe('validation_error');
        expect(res.json.error.details.issues).toEqual([
          {
            path: 'schedule',
            message: `schedule: "next_slot" schedules the post; status ${status} cannot.`,
          },
        ]);
      }
    }
    expect((await h.call('GET', `/api/content/posts/${draft}`)).json.data.status).toBe('draft');
    // The same channel with the status left out, or said: the slot the refusals left free.
    const left = await createPost({ schedule: 'next_slot', targets });
    expect(left.json.data).toMatchObject({ status: 'scheduled', scheduledAt: days[0] });
    const said = await createPost({ schedule: 'next_slot', status: 'scheduled', targets });
    expect(said.json.data).toMatchObject({ status: 'scheduled', scheduledAt: days[1] });
  });
});

describe('schedule: "next_slot" with a channel not the account’s', () => {
  it('refuses it as an unknown channel naming its target, as without schedule', async () => {
    const draft = await createPost({});
    for (const channelIds of [[foreign], ['chn_made_up'], [bluesky, foreign]]) {
      const targets = channelIds.map((channelId) => ({ channelId }));
      const index = channelIds.length - 1;
      const expected = [
        { path: `targets[${index}].channelId`, message: `Unknown channel: ${channelIds[index]}.` },
      ];
      const plain = await createPost({ targets });
      const created = await createPost({ schedule: 'next_slot', targets });
      const updated = await h.call('PUT', `/api/content/posts/${draft.json.data.id}`, {
        body: { schedule: 'next_slot', targets },
      });
      for (const res of [plain, created, updated]) {
        expect(res.status, JSON.stringify(targets)).toBe(400);
        expect(res.json.error.code).toBe('validation_error');
        expect(res.json.error.details.issues).toEqual(expected);
      }
    }
    const kept = await h.call('GET', `/api/content/posts/${draft.json.data.id}`);
    expect(kept.json.data).toMatchObject({ status: 'draft', scheduledAt: null, targets: [] });
  });
});

describe('schedule: "next_slot" with a locked target whose channel is gone', () => {
  /**
   * A draft that went out on X (published) and still goes to a channel of its own, X's channel
   * disconnected since: the locked target stays (docs/publishing.md, Targets), without slots.
   */
  async function sentOnGone(slots: unknown[]) {
    const gone = await channelOf(h, h.main.accountId, 'x');
    const live = await channelOf(h, h.main.accountId, 'bluesky');
    expect((await putSlots(live, slots)).status).toBe(200);
    const draft = await createPost({ targets: [{ channelId: gone }, { channelId: live }] });
    const [sent] = draft.json.data.targets as { id: string }[];
    await setTarget(h, sent?.id ?? '', { status: 'published', externalId: '1', url: null });
    await h.db.delete(channels).where(eq(channels.id, gone));
    return { id: draft.json.data.id as string, gone, live, targets: draft.json.data.targets };
  }

  it('takes the other targets’ slot, with the targets sent back or left out', async () => {
    const post = await sentOnGone(everyDayAt('05:40'));
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `/api/content/posts/${post.id}`, { body });
    const withTargets = await put({ schedule: 'next_slot', targets: post.targets });
    expect(withTargets.status, JSON.stringify(withTargets.json)).toBe(200);
    expect(withTargets.json.data.status).toBe('scheduled');
    expect(berlinTime(withTargets.json.data.scheduledAt)).toBe('05:40');
    expect((await put({ status: 'draft' })).status).toBe(200);
    const without = await put({ schedule: 'next_slot' });
    expect(without.status, JSON.stringify(without.json)).toBe(200);
    expect(berlinTime(without.json.data.scheduledAt)).toBe('05:40');
    // A list that drops the locked target is refused as without schedule.
    expect((await put({ status: 'draft' })).status).toBe(200);
    const dropped = await put({ schedule: 'next_slot', targets: [{ channelId: post.live }] });
    expect(dropped.status).toBe(409);
    expect(dropped.json.error.code).toBe('target_locked');
  });

  it('refuses as ever when the channels left have no slot', async () => {
    const post = await sentOnGone([]);
    const answer = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { schedule: 'next_slot', targets: post.targets },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.details.issues).toEqual([
      { path: 'schedule', message: expect.stringContaining('This channel has no posting slots') },
    ]);
  });
});

describe('schedule: "next_slot" with a locked target on a connected channel', () => {
  /**
   * A failed post back to draft: published on one channel (`sent`, still connected), still to
   * go to another (`left`). The published target is never sent again: only `left` is sent, so
   * only its slots count, and the post holds no slot of `sent`.
   */
  async function sentOnLive(sentSlots: unknown[], leftSlots: unknown[]) {
    const sent = await channelOf(h, h.main.accountId, 'x');
    const left = await channelOf(h, h.main.accountId, 'linkedin');
    expect((await putSlots(sent, sentSlots)).status).toBe(200);
    expect((await putSlots(left, leftSlots)).status).toBe(200);
    const draft = await createPost({ targets: [{ channelId: sent }, { channelId: left }] });
    const [published] = draft.json.data.targets as { id: string }[];
    await setTarget(h, published?.id ?? '', { status: 'published', externalId: '7', url: null });
    const id = draft.json.data.id as string;
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `/api/content/posts/${id}`, { body });
    return { id, sent, left, put, targets: draft.json.data.targets };
  }

  it('takes the slot of the targets still to send, one the published channel does not have', async () => {
    const post = await sentOnLive(everyDayAt('05:20'), everyDayAt('05:50'));
    const preview = await h.call(
      'GET',
      `/api/content/channels/next-slot?channelIds=${post.sent},${post.left}&postId=${post.id}`,
    );
    expect(preview.json.data, JSON.stringify(preview.json)).toMatchObject({ reason: null });
    expect(berlinTime(preview.json.data.at)).toBe('05:50');
    const without = await post.put({ schedule: 'next_slot' });
    expect(without.status, JSON.stringify(without.json)).toBe(200);
    expect(without.json.data.status).toBe('scheduled');
    expect(without.json.data.scheduledAt).toBe(preview.json.data.at);
    expect((await post.put({ status: 'draft' })).status).toBe(200);
    const sentBack = await post.put({ schedule: 'next_slot', targets: post.targets });
    expect(sentBack.status, JSON.stringify(sentBack.json)).toBe(200);
    expect(sentBack.json.data.scheduledAt).toBe(preview.json.data.at);
    // Asked without the post, the two channels are two targets to send: no slot in common.
    const bare = await h.call(
      'GET',
      `/api/content/channels/next-slot?channelIds=${post.sent},${post.left}`,
    );
    expect(bare.json.data).toMatchObject({ at: null, reason: expect.stringMatching(/in common/) });
  });

  it('holds no slot of the published channel: another post there takes it', async () => {
    const post = await sentOnLive(everyDayAt('05:35'), everyDayAt('05:35'));
    const scheduled = await post.put({ schedule: 'next_slot' });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);
    const at = scheduled.json.data.scheduledAt as string;
    const upcoming = (await h.call('GET', path(post.sent))).json.data.upcoming;
    expect(upcoming[0]).toEqual({ at, free: true });
    const there = await createPost({ schedule: 'next_slot', targets: [{ channelId: post.sent }] });
    expect(there.json.data.scheduledAt).toBe(at);
    // The channel it still sends to is held as ever.
    const left = await createPost({ schedule: 'next_slot', targets: [{ channelId: post.left }] });
    expect(Date.parse(left.json.data.scheduledAt) - Date.parse(at)).toBe(86_400_000);
  });

  it('refuses, saying why, when every target went out', async () => {
    const post = await sentOnLive(everyDayAt('05:05'), everyDayAt('05:05'));
    expect((await post.put({ targets: [post.targets[0]] })).status).toBe(200);
    const answer = await post.put({ schedule: 'next_slot' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.details.issues).toEqual([
      { path: 'schedule', message: expect.stringContaining('never sent again') },
    ]);
    const preview = await h.call(
      'GET',
      `/api/content/channels/next-slot?channelIds=${post.sent}&postId=${post.id}`,
    );
    expect(preview.json.data).toMatchObject({
      at: null,
      reason: expect.stringContaining('never sent again'),
    });
    const kept = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(kept.json.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });
});

describe('GET /api/content/channels/next-slot', () => {
  const preview = (query: string, token?: string | null) =>
    h.call('GET', `/api/content/channels/next-slot?${query}`, { token });

  it('names the slot next_slot then takes, for a series too, without taking it', async () => {
    const { id, days, targets } = await dailyChannel('08:15');
    const first = await preview(`channelIds=${id}`);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.data).toEqual({ at: days[0], timeZone: 'Europe/Berlin', reason: null });
    // Asking again gives the same: the preview holds nothing.
    expect((await preview(`channelIds=${id}`)).json.data.at).toBe(days[0]);
    const taken = await createPost({ schedule: 'next_slot', targets });
    expect(taken.json.data.scheduledAt).toBe(days[0]);

    await createPost({ status: 'scheduled', scheduledAt: days[3], targets });
    const rule = 'FREQ=DAILY;COUNT=3';
    const series = await preview(`channelIds=${id}&recurrence=${encodeURIComponent(rule)}`);
    // From days[1] or days[2] the series would meet the post on days[3].
    expect(series.json.data.at).toBe(days[4]);
    const created = await createPost({ schedule: 'next_slot', recurrence: rule, targets });
    expect(created.json.data.scheduledAt).toBe(days[4]);
  });

  it('counts the slot of the post being rescheduled as free', async () => {
    const { id, days, targets } = await dailyChannel('08:45');
    const post = await createPost({ schedule: 'next_slot', targets });
    expect(post.json.data.scheduledAt).toBe(days[0]);
    expect((await preview(`channelIds=${id}`)).json.data.at).toBe(days[1]);
    const own = await preview(`channelIds=${id}&postId=${post.json.data.id}`);
    expect(own.json.data.at).toBe(days[0]);
  });

  it('answers why when no slot would be taken', async () => {
    const bare = await channelOf(h, h.main.accountId, 'linkedin');
    const none = await preview(`channelIds=${bare}`);
    expect(none.status).toBe(200);
    expect(none.json.data.at).toBeNull();
    expect(none.json.data.reason).toMatch(/no posting slots: set some on its page/);
    const { id } = await dailyChannel('09:05');
    const apart = await preview(`channelIds=${id},${bare}`);
    expect(apart.json.data).toMatchObject({ at: null, reason: expect.stringMatching(/in common/) });
  });

  it('refuses a malformed query naming the field', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `chn_${i}`).join(',');
    for (const [query, field] of [
      ['', 'channelIds'],
      ['channelIds=', 'channelIds'],
      [`channelIds=${bluesky},,${mastodon}`, 'channelIds'],
      [`channelIds=${ids}`, 'channelIds'],
      [`channelIds=${bluesky}&recurrence=FREQ%3DHOURLY`, 'recurrence'],
    ] as const) {
      const res = await preview(query);
      expect(res.status, query).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.details.issues[0].path, query).toMatch(new RegExp(`^${field}`));
    }
  });

  it('is the account’s: another account’s channel is 404, even beside one of ours', async () => {
    expect((await preview(`channelIds=${foreign}`)).status).toBe(404);
    const mixed = await preview(`channelIds=${bluesky},${foreign}`);
    expect(mixed.status).toBe(404);
    expect(mixed.json.error.code).toBe('resource_not_found');
    expect((await preview(`channelIds=${bluesky}`, other.token)).status).toBe(404);
    expect((await preview(`channelIds=${foreign}`, other.token)).status).toBe(200);
  });

  it('needs content:read, for every member', async () => {
    expect((await preview(`channelIds=${bluesky}`, readOnly)).status).toBe(200);
    expect((await preview(`channelIds=${bluesky}`, member)).status).toBe(200);
    const analyticsOnly = (await h.keyFor(h.main.adminId, ['analytics:read'])).secret;
    const narrow = await preview(`channelIds=${bluesky}`, analyticsOnly);
    expect(narrow.status).toBe(403);
    expect(narrow.json.error.code).toBe('insufficient_scope');
    expect((await preview(`channelIds=${bluesky}`, null)).status).toBe(401);
  });
});
