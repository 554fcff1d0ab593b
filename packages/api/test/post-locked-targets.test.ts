import { channels, eq, media, posts } from '@chorus/db';
import { publishDuePosts } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { runMigration } from './migration-fixtures';
import { createPost } from './posts-fixtures';
import {
  channelOf,
  mediaWith,
  setTarget,
  targetRow,
  wentOutTo,
  type TargetAnswer,
} from './targets-fixtures';

/**
 * Locked targets (docs/publishing.md, Targets): a published or unconfirmed target stays among a
 * post's targets, sending what it sent, whatever list a PUT brings; one that would drop or
 * change it is refused whole (409 target_locked), never carried out.
 */

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let bluesky: string;
let mastodon: string;
let x: string;

beforeAll(async () => {
  h = await startHarness();
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  mastodon = await channelOf(h, h.main.accountId, 'mastodon');
  x = await channelOf(h, h.main.accountId, 'x');
  other = await h.newAccount('Other', 'other@locked.test');
});
afterAll(() => h?.close());

const put = (id: string, body: Record<string, unknown>, token?: string) =>
  h.call('PUT', `/api/content/posts/${id}`, { body, token });

type Answered = TargetAnswer;

/** The probe's post (wentOutTo) on this file's Mastodon and X channels. */
const wentOut = (extra: Parameters<typeof wentOutTo>[2] = {}) =>
  wentOutTo(h, { mastodon, x }, extra);

describe('a post that went out never becomes a series', () => {
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

  it('refuses a recurrence while a target is published or unconfirmed, naming recurrence and the targets', async () => {
    const post = await wentOut();
    for (const body of [
      { recurrence: 'FREQ=DAILY' },
      { status: 'scheduled', scheduledAt: tomorrow(), recurrence: 'FREQ=WEEKLY' },
      { recurrence: 'FREQ=DAILY', targets: post.targets },
    ]) {
      const answer = await put(post.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.code).toBe('validation_error');
      const [issue] = answer.json.error.details.issues;
      expect(issue.path).toBe('recurrence');
      expect(issue.message).toContain('would go out there again');
      expect(issue.message).toContain(post.sent);
      expect(issue.message).toContain(post.maybe);
    }
    const kept = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(kept.json.data).toMatchObject({ status: 'draft', recurrence: null });
    // Resolved as not published, the X target is free again; the Mastodon one still holds.
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const resolve = `/api/content/posts/${post.id}/targets/${post.maybe}/resolve`;
    expect((await h.call('POST', resolve, { body: { published: false } })).status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    const still = await put(post.id, { recurrence: 'FREQ=DAILY' });
    expect(still.status).toBe(400);
    expect(still.json.error.details.issues[0].message).toContain(post.sent);
    expect(still.json.error.details.issues[0].message).not.toContain(post.maybe);
    // No rule, or the same none again, is no series: allowed as ever.
    expect((await put(post.id, { recurrence: null, title: 'Renamed' })).status).toBe(200);
  });

  it('lets a post whose only sent-or-not target was resolved as not published become a series', async () => {
    const post = await createPost(h, {
      title: 'Maybe',
      content: 'Hello',
      status: 'published',
      targets: [{ channelId: x }],
    });
    const [target = { id: '' }] = post.targets as Answered[];
    await setTarget(h, target.id, { status: 'unconfirmed', attempts: 1 });
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    expect((await put(post.id, { recurrence: 'FREQ=DAILY' })).status).toBe(400);
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const resolve = `/api/content/posts/${post.id}/targets/${target.id}/resolve`;
    expect((await h.call('POST', resolve, { body: { published: false } })).status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    const series = await put(post.id, {
      status: 'scheduled',
      scheduledAt: tomorrow(),
      recurrence: 'FREQ=DAILY',
    });
    expect(series.status, JSON.stringify(series.json)).toBe(200);
    expect(series.json.data).toMatchObject({ status: 'scheduled', recurrence: 'FREQ=DAILY' });
  });
});

describe('a series made of a post that went out, before that was refused', () => {
  it('copies only the targets it will send: a locked one is never copied into an occurrence', async () => {
    const post = await wentOut();
    const added = await put(post.id, {
      content: 'Edited since',
      targets: [...post.targets, { channelId: bluesky }],
    });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    // As an update could make it before the rule was refused: a series whose start has come.
    const past = new Date(Date.now() - 1000);
    await h.db
      .update(posts)
      .set({
        status: 'scheduled',
        scheduledAt: past,
        recurrence: 'FREQ=DAILY',
        nextOccurrenceAt: past,
      })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: h.db });
    const [copy] = await h.db.select().from(posts).where(eq(posts.recurrenceOf, post.id));
    expect(copy?.status).toBe('publishing');
    const got = await h.call('GET', `/api/content/posts/${copy?.id}`);
    expect(got.json.data.targets).toEqual([
      expect.objectContaining({ channelId: bluesky, content: null, status: 'pending' }),
    ]);
    expect(got.json.data.content).toBe('Edited since');
    // The series keeps its locked targets as they were.
    const series = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(series.json.data.targets.map((t: Answered) => [t.id, t.status])).toEqual([
      [post.sent, 'published'],
      [post.maybe, 'unconfirmed'],
      [expect.any(String), 'pending'],
    ]);
  });
});

describe('a PUT of targets on a post that went out', () => {
  it('refuses to drop the unconfirmed target, and the repro never gets to send X again', async () => {
    const post = await wentOut();
    const dropX = await put(post.id, { targets: [{ channelId: mastodon }] });
    expect(dropX.status).toBe(409);
    expect(dropX.json).toMatchObject({
      success: false,
      error: { code: 'target_locked', status: 409 },
    });
    expect(dropX.json.error.message).toContain(post.maybe);
    expect(dropX.json.error.message).toContain(x);
    expect(dropX.json.error.details.lockedTargets).toEqual([
      {
        targetId: post.maybe,
        channelId: x,
        status: 'unconfirmed',
        change: 'removed',
        path: 'targets',
        message: expect.stringContaining('may already be on the network'),
      },
    ]);
    // Nothing changed: the X target is the same one, still waiting to be resolved.
    expect(await targetRow(h, post.maybe)).toMatchObject({ status: 'unconfirmed', position: 1 });
    // Adding X back is then no new target: the list holds the one it has.
    const same = await put(post.id, { targets: [{ channelId: mastodon }, { channelId: x }] });
    expect(same.status).toBe(200);
    expect(same.json.data.targets.map((t: Answered) => [t.id, t.status])).toEqual([
      [post.sent, 'published'],
      [post.maybe, 'unconfirmed'],
    ]);
    const publish = await put(post.id, { status: 'published' });
    expect(publish.status).toBe(409);
    expect(publish.json.error.details.unconfirmedTargets).toEqual([post.maybe]);
  });

  it('refuses to drop the published target, keeping its url and externalId', async () => {
    const post = await wentOut();
    const dropMastodon = await put(post.id, { targets: [{ channelId: x }] });
    expect(dropMastodon.status).toBe(409);
    expect(dropMastodon.json.error.code).toBe('target_locked');
    expect(dropMastodon.json.error.details.lockedTargets).toEqual([
      expect.objectContaining({
        targetId: post.sent,
        channelId: mastodon,
        status: 'published',
        change: 'removed',
        message: expect.stringContaining('never sent again'),
      }),
    ]);
    // Both at once, each named.
    const none = await put(post.id, { targets: [{ channelId: bluesky }] });
    expect(none.status).toBe(409);
    expect(
      none.json.error.details.lockedTargets.map((t: { targetId: string }) => t.targetId),
    ).toEqual([post.sent, post.maybe]);
    expect(await targetRow(h, post.sent)).toMatchObject({
      status: 'published',
      externalId: '110',
      url: 'https://mastodon.example/@me/110',
    });
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json.data.targets.map((t: Answered) => t.id)).toEqual([post.sent, post.maybe]);
  });

  it('refuses a change to what a locked target sends: its own content, media, thread, first comment', async () => {
    const post = await wentOut({ mastodon: { content: 'Hello, fediverse' } });
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    for (const change of [
      { content: 'Edited' },
      { content: null },
      { mediaIds: [image] },
      { thread: [{ content: 'More' }] },
      { firstComment: 'Below' },
    ]) {
      const answer = await put(post.id, {
        targets: [
          { channelId: mastodon, content: 'Hello, fediverse', ...change },
          { channelId: x },
        ],
      });
      expect(answer.status, JSON.stringify(change)).toBe(409);
      expect(answer.json.error.details.lockedTargets).toEqual([
        expect.objectContaining({ targetId: post.sent, change: 'changed', path: 'targets[0]' }),
      ]);
    }
    const x2 = await put(post.id, {
      targets: [
        { channelId: mastodon, content: 'Hello, fediverse' },
        { channelId: x, content: 'X' },
      ],
    });
    expect(x2.status).toBe(409);
    expect(x2.json.error.details.lockedTargets).toEqual([
      expect.objectContaining({ targetId: post.maybe, status: 'unconfirmed', path: 'targets[1]' }),
    ]);
    expect(await targetRow(h, post.sent)).toMatchObject({
      content: 'Hello, fediverse',
      revision: 0,
    });
  });

  it('takes the locked targets back as answered, in any order, beside channels added or dropped', async () => {
    const post = await wentOut();
    const back = await put(post.id, {
      targets: [{ channelId: bluesky }, ...[...post.targets].reverse()],
    });
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    const [added, maybe, sent] = back.json.data.targets as Answered[];
    expect(added).toMatchObject({ channelId: bluesky, status: 'pending' });
    expect(maybe).toMatchObject({ id: post.maybe, status: 'unconfirmed' });
    expect(sent).toMatchObject({
      id: post.sent,
      status: 'published',
      url: 'https://mastodon.example/@me/110',
    });
    const dropped = await put(post.id, { targets: [{ channelId: mastodon }, { channelId: x }] });
    expect(dropped.status).toBe(200);
    expect(dropped.json.data.targets.map((t: Answered) => t.id)).toEqual([post.sent, post.maybe]);
  });

  it('takes back a locked target whose channel was disconnected or whose medium was deleted', async () => {
    const gone = await channelOf(h, h.main.accountId, 'mastodon');
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const post = await createPost(h, {
      title: 'Gone since',
      content: 'Hello',
      targets: [{ channelId: gone, mediaIds: [image] }],
    });
    const [target = { id: '' }] = post.targets as Answered[];
    await setTarget(h, target.id, { status: 'published', externalId: '1', url: 'https://m/1' });
    await h.db.delete(channels).where(eq(channels.id, gone));
    await h.db.delete(media).where(eq(media.id, image));
    const answer = await put(post.id, {
      targets: [...(post.targets as Answered[]), { channelId: bluesky }],
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.targets.map((t: Answered) => t.id)[0]).toBe(target.id);
    // A target that is not locked is checked as ever: a channel that is gone is unknown.
    const pending = await createPost(h, { title: 'P', targets: [{ channelId: bluesky }] });
    const unknown = await put(pending.id, { targets: [{ channelId: gone }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.details.issues[0].path).toBe('targets[0].channelId');
  });

  it('unlocks an unconfirmed target once resolved as not published: then it may change', async () => {
    const post = await wentOut();
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const resolved = await h.call(
      'POST',
      `/api/content/posts/${post.id}/targets/${post.maybe}/resolve`,
      { body: { published: false } },
    );
    expect(resolved.status).toBe(200);
    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    const edited = await put(post.id, { targets: [{ channelId: mastodon }] });
    expect(edited.status).toBe(200);
    expect(await targetRow(h, post.maybe)).toBeUndefined();
  });

  it("is another account's post as unknown as ever: 404, nothing named", async () => {
    const post = await wentOut();
    const foreign = await put(post.id, { targets: [] }, other.token);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.json)).not.toContain(post.sent);
    expect(await targetRow(h, post.sent)).toMatchObject({ status: 'published' });
  });
});

describe('a blank first comment stored before it was refused', () => {
  it('is no comment after the migration: answered null, a locked target taken back as answered', async () => {
    const post = await wentOut({ mastodon: { firstComment: 'More below' } });
    const draft = await createPost(h, {
      title: 'Kept',
      targets: [
        { channelId: bluesky, firstComment: ' Spaces kept ' },
        { channelId: x, firstComment: 'Soon blank' },
      ],
    });
    const [kept = { id: '' }, blank = { id: '' }] = draft.targets as Answered[];
    // As an earlier version stored them: on the published (locked) target and on a draft's.
    await setTarget(h, post.sent, { firstComment: '' });
    await setTarget(h, blank.id, { firstComment: ' \n\t\u3000' });
    const answered = async (id: string) =>
      (await h.call('GET', `/api/content/posts/${id}`)).json.data.targets as (Answered & {
        firstComment: string | null;
      })[];
    // Sent back as answered, the locked target's blank comment would be refused, and anything
    // else would change what it sent: the post could not take its own targets back.
    expect((await put(post.id, { title: 'Edited', targets: await answered(post.id) })).status).toBe(
      400,
    );

    // Twice: a comment with text, and one already null, stay as they are.
    for (let round = 0; round < 2; round += 1) await runMigration(h, '_blank_first_comment');
    expect((await answered(post.id)).map((t) => t.firstComment)).toEqual([null, null]);
    expect((await answered(draft.id)).map((t) => t.firstComment)).toEqual([' Spaces kept ', null]);
    expect((await targetRow(h, kept.id))?.firstComment).toBe(' Spaces kept ');
    const edited = await put(post.id, { title: 'Edited', targets: await answered(post.id) });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(await targetRow(h, post.sent)).toMatchObject({
      status: 'published',
      externalId: '110',
      firstComment: null,
    });
  });
});
