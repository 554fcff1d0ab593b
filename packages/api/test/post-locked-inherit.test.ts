import { eq, posts } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import {
  channelOf,
  mediaWith,
  setTarget,
  targetRow,
  wentOutTo,
  type TargetAnswer,
} from './targets-fixtures';

/**
 * A locked target keeps what it sent (docs/publishing.md, Targets): an edit of the post's
 * `content` or `mediaIds` that a published or unconfirmed target falls back to leaves the old
 * value as the target's own, its revision, head and progress as they were; the targets that
 * went nowhere follow the post as ever (revised).
 */

let h: Harness;
let bluesky: string;
let mastodon: string;
let x: string;

beforeAll(async () => {
  h = await startHarness();
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  mastodon = await channelOf(h, h.main.accountId, 'mastodon');
  x = await channelOf(h, h.main.accountId, 'x');
});
afterAll(() => h?.close());

const put = (id: string, body: Record<string, unknown>) =>
  h.call('PUT', `/api/content/posts/${id}`, { body });
const wentOut = (extra: Parameters<typeof wentOutTo>[2] = {}) =>
  wentOutTo(h, { mastodon, x }, extra);

describe("an edit of the post's content", () => {
  it('leaves the old text as the own content of each locked target, its revision and head kept', async () => {
    const post = await wentOut();
    // X's head may be live: the attempt got as far as an id before the connection dropped.
    await setTarget(h, post.maybe, { externalId: '777', progress: { head: '777' } });
    const added = await put(post.id, { targets: [...post.targets, { channelId: bluesky }] });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const pending = (added.json.data.targets as TargetAnswer[])[2]?.id ?? '';

    const edited = await put(post.id, { content: 'Edited' });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json.data.content).toBe('Edited');
    const targets = edited.json.data.targets as (TargetAnswer & { externalId: string | null })[];
    expect(targets.map((t) => [t.id, t.status, t.content])).toEqual([
      [post.sent, 'published', 'Hello'],
      [post.maybe, 'unconfirmed', 'Hello'],
      [pending, 'pending', null],
    ]);
    expect(targets[1]?.externalId).toBe('777');
    expect(await targetRow(h, post.sent)).toMatchObject({
      content: 'Hello',
      mediaIds: null,
      revision: 0,
      externalId: '110',
      url: 'https://mastodon.example/@me/110',
    });
    expect(await targetRow(h, post.maybe)).toMatchObject({
      content: 'Hello',
      mediaIds: null,
      revision: 0,
      externalId: '777',
      progress: { head: '777' },
    });
    // The target that went nowhere follows the post: revised, new keys for the new text.
    expect(await targetRow(h, pending)).toMatchObject({ content: null, revision: 1 });

    // The answer's targets come back as they are with a further edit: accepted, still kept.
    const again = await put(post.id, { content: 'Again', targets });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(await targetRow(h, post.maybe)).toMatchObject({ content: 'Hello', revision: 0 });

    // Resolved as not published, X's retry sends what it may have sent, with the same keys.
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const resolve = `/api/content/posts/${post.id}/targets/${post.maybe}/resolve`;
    expect((await h.call('POST', resolve, { body: { published: false } })).status).toBe(200);
    expect(await targetRow(h, post.maybe)).toMatchObject({
      status: 'failed',
      content: 'Hello',
      revision: 0,
      externalId: '777',
    });
  });

  it('keeps them in one update that also sends the targets back as they were (a whole-form save)', async () => {
    const post = await wentOut();
    const saved = await put(post.id, { content: 'Edited', targets: post.targets });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect((saved.json.data.targets as TargetAnswer[]).map((t) => t.content)).toEqual([
      'Hello',
      'Hello',
    ]);
    expect(await targetRow(h, post.maybe)).toMatchObject({ revision: 0 });
  });

  it("leaves a locked target's own text alone", async () => {
    const post = await wentOut({ mastodon: { content: 'Hello, fediverse' } });
    const edited = await put(post.id, { content: 'Edited' });
    expect(edited.status).toBe(200);
    expect(await targetRow(h, post.sent)).toMatchObject({
      content: 'Hello, fediverse',
      revision: 0,
    });
  });
});

describe("an edit of the post's media", () => {
  it('leaves the old list as the own media of each locked target, and only that field', async () => {
    const [first, second] = [
      await mediaWith(h, h.main.accountId, 'image/png', 1000),
      await mediaWith(h, h.main.accountId, 'image/png', 1000),
    ];
    const post = await wentOut({ post: { mediaIds: [first] } });
    const edited = await put(post.id, { mediaIds: [second] });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json.data.mediaIds).toEqual([second]);
    expect(
      (edited.json.data.targets as TargetAnswer[]).map((t) => [t.content, t.mediaIds]),
    ).toEqual([
      [null, [first]],
      [null, [first]],
    ]);
    expect(await targetRow(h, post.maybe)).toMatchObject({ mediaIds: [first], revision: 0 });
    // Both fields at once: each locked target keeps both.
    const both = await put(post.id, { content: 'Edited', mediaIds: [] });
    expect(both.status, JSON.stringify(both.json)).toBe(200);
    expect(await targetRow(h, post.sent)).toMatchObject({
      content: 'Hello',
      mediaIds: [first],
      revision: 0,
    });
  });
});
