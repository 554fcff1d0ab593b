import { eq, posts, postTargets } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { createPost, eventsOf, inAnHour } from './posts-fixtures';
import { testRateLimiter } from './rate-limiter';
import { channelOf, mediaWith, setTarget, targetRow } from './targets-fixtures';

/** Targets on posts, the preflight and publish now (docs/publishing.md). */

let h: Harness;
let bluesky: string;
let mastodon: string;
let foreign: string;
let other: Awaited<ReturnType<Harness['newAccount']>>;

beforeAll(async () => {
  // More writes a minute than the free tier's 120 (its rules are the rate-limit suites'): a
  // budget spent mid-file would answer 429 where a test reads its own answer.
  h = await startHarness({ limits: { free: { read: 1e9, write: 1e9 } } });
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  // An instance with its own limit, as discovery stores it.
  mastodon = await channelOf(h, h.main.accountId, 'mastodon', { maxLength: 1000 });
  other = await h.newAccount('Other', 'other@targets.test');
  foreign = await channelOf(h, other.accountId, 'bluesky');
});
afterAll(() => h?.close());

const put = (id: string, body: Record<string, unknown>, token?: string) =>
  h.call('PUT', `/api/content/posts/${id}`, { body, token });
const validate = (body: Record<string, unknown>, token?: string) =>
  h.call('POST', '/api/content/posts/validate', { body, token });
const long = (n: number) => 'a'.repeat(n);

describe('targets on a post', () => {
  it('are created with the post and answered with it, fields left out falling back', async () => {
    const post = await createPost(h, {
      title: 'T',
      content: 'Hello',
      targets: [
        { channelId: bluesky },
        {
          channelId: mastodon,
          content: 'Hello, fediverse',
          firstComment: 'More below',
          thread: [{ content: 'Second' }],
        },
      ],
    });
    expect(post.targets).toEqual([
      {
        id: expect.stringMatching(/^tgt_[0-9A-Z]{26}$/),
        channelId: bluesky,
        content: null,
        mediaIds: null,
        firstComment: null,
        thread: null,
        status: 'pending',
        externalId: null,
        url: null,
        publishedAt: null,
        attempts: 0,
        error: null,
      },
      expect.objectContaining({
        channelId: mastodon,
        content: 'Hello, fediverse',
        firstComment: 'More below',
        thread: [{ content: 'Second' }],
      }),
    ]);
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json.data.targets).toEqual(post.targets);
    const listed = await h.call('GET', '/api/content/posts?limit=100');
    expect(listed.json.data.find((p: { id: string }) => p.id === post.id).targets).toEqual(
      post.targets,
    );
  });

  it('refuses another account’s channel exactly like one that does not exist', async () => {
    const answers = [];
    for (const channelId of [foreign, 'chn_00000000000000000000000000']) {
      const { status, json } = await h.call('POST', '/api/content/posts', {
        body: { title: 'T', targets: [{ channelId: bluesky }, { channelId }] },
      });
      expect(status).toBe(400);
      expect(json.error.code).toBe('validation_error');
      answers.push(json.error.details.issues.map((i: { path: string }) => i.path));
    }
    expect(answers).toEqual([['targets[1].channelId'], ['targets[1].channelId']]);
  });

  it('refuses the same channel twice, and another account’s media', async () => {
    const twice = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', targets: [{ channelId: bluesky }, { channelId: bluesky }] },
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error.details.issues[0].path).toBe('targets[1].channelId');
    const theirs = await mediaWith(h, other.accountId, 'image/png', 10);
    const media = await h.call('POST', '/api/content/posts', {
      body: {
        title: 'T',
        targets: [{ channelId: bluesky, thread: [{ content: 'x', mediaIds: [theirs] }] }],
      },
    });
    expect(media.status).toBe(400);
    expect(media.json.error.details.issues[0].path).toBe('targets[0].thread[0].mediaIds[0]');
  });

  it('are replaced by PUT, a channel that stays keeping its target and, unchanged, its progress', async () => {
    const post = await createPost(h, {
      title: 'T',
      targets: [{ channelId: bluesky, content: 'one' }, { channelId: mastodon }],
    });
    const [blue = { id: '' }, masto = { id: '' }] = post.targets as { id: string }[];
    await setTarget(h, blue.id, { progress: { posts: ['at://a/1'] } });
    await setTarget(h, masto.id, { progress: { media: 'm1' } });

    const { status, json } = await put(post.id, {
      targets: [{ channelId: mastodon }, { channelId: bluesky, content: 'two' }],
    });
    expect(status).toBe(200);
    expect(json.data.targets.map((t: { id: string }) => t.id)).toEqual([masto.id, blue.id]);
    // What the Bluesky target sends changed: what an earlier attempt did no longer applies.
    expect((await targetRow(h, blue.id))?.progress).toEqual({});
    expect((await targetRow(h, masto.id))?.progress).toEqual({ media: 'm1' });
    // Its revision moves on with it (the networks' idempotency keys derive from it).
    expect((await targetRow(h, blue.id))?.revision).toBe(1);
    expect((await targetRow(h, masto.id))?.revision).toBe(0);

    // The post's own content is what the Mastodon target sends (it has none of its own).
    expect((await put(post.id, { content: 'new for all' })).status).toBe(200);
    expect(await targetRow(h, masto.id)).toMatchObject({ progress: {}, revision: 1 });
    expect((await targetRow(h, blue.id))?.revision).toBe(1);
    // The same again is no change.
    await setTarget(h, masto.id, { progress: { media: 'm2' } });
    expect((await put(post.id, { content: 'new for all' })).status).toBe(200);
    expect(await targetRow(h, masto.id)).toMatchObject({ progress: { media: 'm2' }, revision: 1 });

    const dropped = await put(post.id, { targets: [{ channelId: mastodon }] });
    expect(dropped.json.data.targets).toHaveLength(1);
    expect(await targetRow(h, blue.id)).toBeUndefined();
  });

  it('revised, keep the live posts of their unchanged first parts and the link to a head that stays', async () => {
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const thread = [{ content: 'two' }, { content: 'three' }];
    const post = await createPost(h, {
      title: 'T',
      content: 'Hello',
      mediaIds: [image],
      targets: [
        { channelId: bluesky, thread, firstComment: 'c1' },
        { channelId: mastodon, firstComment: 'c1' },
      ],
    });
    const [blue = { id: '' }, masto = { id: '' }] = post.targets as { id: string }[];
    // As the engine leaves them: Bluesky's third part refused, Mastodon's comment refused.
    const uri = (n: number) => `at://did:plc:a/app.bsky.feed.post/${n}`;
    const blueHead = { externalId: uri(1), url: 'https://bsky.app/profile/did:plc:a/post/1' };
    await setTarget(h, blue.id, {
      status: 'failed',
      ...blueHead,
      progress: { posts: [`${uri(1)} cid1`, `${uri(2)} cid2`] },
    });
    const mastoHead = { externalId: '101', url: 'https://m.example/@a/101' };
    await setTarget(h, masto.id, {
      status: 'failed',
      ...mastoHead,
      progress: { posted: ['101'], url: mastoHead.url },
    });

    // The third part and the comment fixed: the head (and the part after it) are still true.
    const fixed = await put(post.id, {
      targets: [
        {
          channelId: bluesky,
          thread: [thread[0], { content: 'three, fixed' }],
          firstComment: 'c1',
        },
        { channelId: mastodon, firstComment: 'c2' },
      ],
    });
    expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
    expect(fixed.json.data.targets).toMatchObject([blueHead, mastoHead]);
    expect(await targetRow(h, blue.id)).toMatchObject({
      progress: { posts: [`${uri(1)} cid1`, `${uri(2)} cid2`] },
      revision: 1,
    });
    expect(await targetRow(h, masto.id)).toMatchObject({
      progress: { posted: ['101'], url: mastoHead.url },
      revision: 1,
    });

    // The post's own text and image, now the target's own, and the post's image gone in the
    // same update: the Mastodon head sends what it sent, so it stays.
    const own = await put(post.id, {
      mediaIds: [],
      targets: [
        {
          channelId: bluesky,
          thread: [thread[0], { content: 'three, fixed' }],
          firstComment: 'c1',
        },
        { channelId: mastodon, content: 'Hello', mediaIds: [image], firstComment: 'c3' },
      ],
    });
    expect(own.status, JSON.stringify(own.json)).toBe(200);
    expect(await targetRow(h, masto.id)).toMatchObject({
      ...mastoHead,
      progress: { posted: ['101'], url: mastoHead.url },
      revision: 2,
    });
    // Bluesky's head loses the post's image: a new head, nothing kept, no link to the old one.
    expect(await targetRow(h, blue.id)).toMatchObject({
      externalId: null,
      url: null,
      progress: {},
      revision: 2,
    });

    // A new head text: nothing of the old post is kept (it starts a new one).
    const text = await put(post.id, {
      targets: [
        {
          channelId: bluesky,
          thread: [thread[0], { content: 'three, fixed' }],
          firstComment: 'c1',
        },
        { channelId: mastodon, content: 'Hello, again', mediaIds: [image], firstComment: 'c3' },
      ],
    });
    expect(text.status).toBe(200);
    expect(await targetRow(h, masto.id)).toMatchObject({
      externalId: null,
      url: null,
      progress: {},
      revision: 3,
    });
  });

  it('take back the targets a post answers as they are: null is the same as left out', async () => {
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const post = await createPost(h, {
      title: 'T',
      content: 'for all',
      targets: [
        { channelId: mastodon },
        { channelId: bluesky, content: 'own', thread: [{ content: 'two', mediaIds: [image] }] },
      ],
    });
    const answered = post.targets as Record<string, unknown>[];
    expect(answered[0]).toMatchObject({ content: null, mediaIds: null, thread: null });
    await setTarget(h, answered[0]?.id as string, { progress: { media: 'm1' } });

    // Sent back whole (ids, statuses and all): accepted, and nothing the targets send changed.
    const back = await put(post.id, { targets: answered });
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(back.json.data.targets).toEqual(answered);
    expect(await targetRow(h, answered[0]?.id as string)).toMatchObject({
      progress: { media: 'm1' },
      revision: 0,
    });
    const checked = await validate({ title: 'T', content: 'for all', targets: answered });
    expect(checked.status).toBe(200);
    expect(checked.json.data.valid).toBe(true);

    // null where a value was: the post's own again, as leaving it out would make it.
    const nulls = { content: null, mediaIds: null, firstComment: null, thread: null };
    const cleared = await put(post.id, {
      targets: [{ channelId: mastodon }, { channelId: bluesky, ...nulls }],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data.targets[1]).toMatchObject(nulls);
    const created = await h.call('POST', '/api/content/posts', {
      body: {
        title: 'T',
        targets: [{ channelId: bluesky, ...nulls, thread: [{ content: 'x', mediaIds: null }] }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.data.targets[0].thread).toEqual([{ content: 'x' }]);
  });

  it('can change only while the post is a draft or scheduled', async () => {
    for (const status of ['published', 'archived', 'failed', 'publishing'] as const) {
      const post = await createPost(h, { title: 'T', targets: [{ channelId: bluesky }] });
      await h.db.update(posts).set({ status }).where(eq(posts.id, post.id));
      const { status: code, json } = await put(post.id, { targets: [] });
      expect(code, status).toBe(400);
      expect(json.error.details.issues[0].path).toBe('targets');
    }
    const scheduled = await createPost(h, {
      title: 'T',
      content: 'x',
      status: 'scheduled',
      scheduledAt: inAnHour(),
      targets: [{ channelId: bluesky }],
    });
    expect((await put(scheduled.id, { targets: [{ channelId: mastodon }] })).status).toBe(200);
  });
});

describe('the content and media of a publishing post', () => {
  it('cannot change until publishing ends: the targets still to go would send the new ones', async () => {
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const other = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const post = await createPost(h, {
      title: 'T',
      content: 'Sent as written',
      mediaIds: [image],
      targets: [{ channelId: mastodon }],
    });
    await h.db.update(posts).set({ status: 'publishing' }).where(eq(posts.id, post.id));

    for (const [path, change] of [
      ['content', { content: 'Changed on the way' }],
      ['mediaIds', { mediaIds: [other] }],
      ['mediaIds', { mediaIds: [] }],
    ] as const) {
      const { status, json } = await put(post.id, change);
      expect(status, path).toBe(400);
      expect(json.error).toMatchObject({
        code: 'validation_error',
        details: { issues: [{ path }] },
      });
    }
    // The same values back, and what is not sent (the title, the tags), are no change to it.
    const same = await put(post.id, {
      title: 'Renamed',
      tags: ['kept'],
      content: 'Sent as written',
      mediaIds: [image],
    });
    expect(same.status).toBe(200);
    expect(same.json.data).toMatchObject({
      title: 'Renamed',
      content: 'Sent as written',
      mediaIds: [image],
      status: 'publishing',
    });

    // Once it has failed, it is fixed, then retried.
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const fixed = await put(post.id, { content: 'Fixed', mediaIds: [other] });
    expect(fixed.status).toBe(200);
    expect(fixed.json.data).toMatchObject({ content: 'Fixed', mediaIds: [other] });
  });
});

describe('DELETE of a publishing post', () => {
  it('is 409 while its targets are on their way, and the post and its targets stay', async () => {
    const post = await createPost(h, {
      title: 'On its way',
      content: 'On its way',
      status: 'published',
      targets: [{ channelId: mastodon }],
    });
    expect(post.status).toBe('publishing');
    const refused = await h.call('DELETE', `/api/content/posts/${post.id}`);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({
      code: 'invalid_status_transition',
      details: { currentStatus: 'publishing' },
    });
    const kept = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(kept.status).toBe(200);
    expect(kept.json.data.targets).toHaveLength(1);
    expect((await eventsOf(h, post.id)).map((e) => e.type)).not.toContain('post.deleted');
    // Once publishing has ended, it can go.
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    expect((await h.call('DELETE', `/api/content/posts/${post.id}`)).status).toBe(204);
  });
});

describe('POST /api/content/posts/validate', () => {
  it('names the offending target’s field, counting each network its own way', async () => {
    const before = await h.db.select().from(posts);
    const { status, json } = await validate({
      title: 'T',
      content: long(301),
      targets: [{ channelId: mastodon }, { channelId: bluesky }],
    });
    expect(status).toBe(200);
    expect(json.data).toEqual({
      valid: false,
      issues: [{ path: 'targets[1].content', message: '301 of 300 allowed on Bluesky (1 over).' }],
    });
    // Nothing is written.
    expect(await h.db.select().from(posts)).toEqual(before);
  });

  it('uses the channel’s own limits over the network’s (an instance’s 1,000 characters)', async () => {
    const ok = await validate({
      title: 'T',
      content: long(900),
      targets: [{ channelId: mastodon }],
    });
    expect(ok.json.data).toEqual({ valid: true, issues: [] });
    const over = await validate({
      title: 'T',
      content: long(1001),
      targets: [{ channelId: mastodon }],
    });
    expect(over.json.data.issues).toEqual([
      { path: 'targets[0].content', message: expect.stringContaining('1001 of 1000') },
    ]);
  });

  it('checks threads, first comments, media and unknown channels, each with its path', async () => {
    const pdf = await mediaWith(h, h.main.accountId, 'application/pdf', 1000);
    const { json } = await validate({
      title: 'T',
      content: 'ok',
      targets: [
        { channelId: bluesky, thread: [{ content: 'fine' }, { content: long(400) }] },
        { channelId: mastodon, mediaIds: [pdf], firstComment: long(1001) },
        { channelId: foreign },
      ],
    });
    expect(json.data.valid).toBe(false);
    expect(json.data.issues.map((i: { path: string }) => i.path).sort()).toEqual(
      [
        'targets[0].thread[1].content',
        'targets[1].mediaIds[0]',
        'targets[1].firstComment',
        'targets[2].channelId',
      ].sort(),
    );
  });

  it('refuses what create refuses: unknown or foreign post media, a schedule in the past', async () => {
    const foreignImage = await mediaWith(h, other.accountId, 'image/png', 1000);
    for (const [body, path] of [
      [{ title: 'x', mediaIds: ['med_nope'] }, 'mediaIds'],
      [{ title: 'x', mediaIds: [foreignImage] }, 'mediaIds'],
      [{ status: 'scheduled', title: 'x', scheduledAt: '2020-01-01T00:00:00.000Z' }, 'scheduledAt'],
      [{ title: 'x', scheduledAt: inAnHour() }, 'scheduledAt'],
    ] as const) {
      const checked = await validate(body);
      expect(checked.status).toBe(200);
      expect(checked.json.data.valid, JSON.stringify(body)).toBe(false);
      expect(checked.json.data.issues.map((i: { path: string }) => i.path)).toContain(path);
      const created = await h.call('POST', '/api/content/posts', { body });
      expect(created.status).toBe(400);
      expect(created.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(
        path,
      );
    }
  });

  it('lists the rules on a body’s values as issues, which create and PUT refuse (400)', async () => {
    const image = await mediaWith(h, h.main.accountId, 'image/png', 1000);
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `part ${i}` }));
    for (const [body, path] of [
      [
        { title: 'x', targets: [{ channelId: bluesky }, { channelId: bluesky }] },
        'targets[1].channelId',
      ],
      [{ title: 'x', targets: [{ channelId: mastodon, thread: parts(25) }] }, 'targets[0].thread'],
      [{ title: 'x', mediaIds: [image, image] }, 'mediaIds[1]'],
      [
        { title: 'x', targets: [{ channelId: bluesky, mediaIds: [image, image] }] },
        'targets[0].mediaIds[1]',
      ],
    ] as const) {
      const checked = await validate(body);
      expect(checked.status, JSON.stringify(body)).toBe(200);
      expect(checked.json.data.valid).toBe(false);
      expect(checked.json.data.issues.map((i: { path: string }) => i.path)).toContain(path);
      const created = await h.call('POST', '/api/content/posts', { body });
      expect(created.status).toBe(400);
      expect(created.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([
        path,
      ]);
      const draft = await createPost(h, { title: 'x' });
      const { title: _title, ...change } = body;
      const updated = await put(draft.id, change);
      expect(updated.status).toBe(400);
      expect(updated.json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([
        path,
      ]);
    }
    // 24 parts after the first is the most: valid as far as the rule goes.
    const longest = await validate({
      title: 'x',
      content: 'head',
      targets: [{ channelId: mastodon, thread: parts(24) }],
    });
    expect(longest.json.data.issues).toEqual([]);
    // A body of the wrong shape is still 400: a value of the wrong type, or past a request's
    // bound (more than 100 parts).
    for (const body of [
      { title: 'x', targets: [{ channelId: 7 }] },
      { title: 'x', targets: [{ channelId: mastodon, thread: parts(101) }] },
    ]) {
      expect((await validate(body)).status).toBe(400);
    }
  });

  it('lists a blank first comment, which every door refuses (400) before anything goes out', async () => {
    // Blank, every network refused the comment or posted an empty reply after the post itself
    // had gone out: a clear refusal here instead, at the comment's path.
    const trpc = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
    });
    const trpcCreate = (body: Record<string, unknown>) =>
      trpc(
        new Request('http://localhost/api/trpc/posts.create', {
          method: 'POST',
          headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const draft = await createPost(h, { title: 'x', content: 'Hello' });
    const before = (await h.db.select().from(posts)).length;
    for (const firstComment of ['', '   ', '\n\t\u00a0']) {
      const targets = [{ channelId: bluesky }, { channelId: mastodon, firstComment }];
      const issue = {
        path: 'targets[1].firstComment',
        message: 'A first comment needs text: leave it out (or null) for none.',
      };
      const body = { title: 'x', content: 'Hello', targets };
      const checked = await validate(body);
      expect(checked.status).toBe(200);
      expect(checked.json.data, JSON.stringify(firstComment)).toEqual({
        valid: false,
        issues: [issue],
      });
      for (const asked of [
        {},
        { status: 'scheduled', scheduledAt: inAnHour() },
        { status: 'published' },
      ]) {
        const created = await h.call('POST', '/api/content/posts', { body: { ...body, ...asked } });
        expect(created.status, JSON.stringify(asked)).toBe(400);
        expect(created.json.error.details.issues).toEqual([issue]);
        const updated = await put(draft.id, { targets, ...asked });
        expect(updated.status, JSON.stringify(asked)).toBe(400);
        expect(updated.json.error.details.issues).toEqual([issue]);
      }
      const viaTrpc = await trpcCreate(body);
      expect(viaTrpc.status).toBe(400);
      expect(JSON.stringify(await viaTrpc.json())).toContain('targets[1].firstComment');
      const imported = await h.call('POST', '/api/content/posts/import', {
        body: { posts: [body] },
      });
      expect(imported.status).toBe(400);
      expect(imported.json.error.details.issues).toEqual([{ row: 1, ...issue }]);
    }
    expect((await h.db.select().from(posts)).length).toBe(before);
    const [row] = await h.db.select().from(posts).where(eq(posts.id, draft.id));
    expect(row?.status).toBe('draft');
    expect(await h.db.select().from(postTargets).where(eq(postTargets.postId, draft.id))).toEqual(
      [],
    );
    // A comment with text is taken, surrounding spaces and all, as the network gets it.
    const kept = await createPost(h, {
      title: 'x',
      targets: [{ channelId: mastodon, firstComment: ' More below ' }],
    });
    expect((kept.targets as { firstComment: string }[])[0]?.firstComment).toBe(' More below ');
  });

  it('names a thread too long once, as create does, on every network that has threads', async () => {
    const x = await channelOf(h, h.main.accountId, 'x');
    const thread = Array.from({ length: 25 }, (_, i) => ({ content: `part ${i}` }));
    for (const channelId of [x, mastodon, bluesky]) {
      const body = { title: 'x', content: 'head', targets: [{ channelId, thread }] };
      const checked = await validate(body);
      expect(checked.json.data.issues).toEqual([
        {
          path: 'targets[0].thread',
          message: 'A thread has at most 25 posts: the first and 24 more (25 more here).',
        },
      ]);
      const created = await h.call('POST', '/api/content/posts', { body });
      expect(created.json.error.details.issues).toEqual(checked.json.data.issues);
    }
  });

  it('is valid for a post without targets, and 400 for a body that is not a post', async () => {
    expect((await validate({ title: 'T', content: long(5000) })).json.data).toEqual({
      valid: true,
      issues: [],
    });
    const bad = await validate({ content: 'no title' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('validation_error');
  });

  it('needs content:read and answers on the tRPC door too', async () => {
    const writer = (await h.keyFor(h.main.adminId, ['content:write'])).secret;
    const refused = await validate({ title: 'T' }, writer);
    expect(refused.status).toBe(403);
    expect(refused.json.error.details.requiredScopes).toEqual(['content:read']);
    // Another account's channel is unknown to it, whichever door.
    expect(
      (await validate({ title: 'T', targets: [{ channelId: bluesky }] }, other.token)).json.data
        .issues,
    ).toEqual([{ path: 'targets[0].channelId', message: `Unknown channel: ${bluesky}.` }]);
    const trpc = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
    });
    const res = await trpc(
      new Request('http://localhost/api/trpc/posts.validate', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'T', content: long(301), targets: [{ channelId: bluesky }] }),
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { data: { data: { valid: boolean } } } };
    expect(body.result.data.data.valid).toBe(false);
  });
});

describe('scheduling or publishing an invalid post', () => {
  it('is refused with the issues, and nothing is created', async () => {
    const before = (await h.db.select().from(posts)).length;
    for (const status of ['scheduled', 'published']) {
      const { status: code, json } = await h.call('POST', '/api/content/posts', {
        body: {
          title: 'T',
          content: long(301),
          status,
          ...(status === 'scheduled' ? { scheduledAt: inAnHour() } : {}),
          targets: [{ channelId: mastodon }, { channelId: bluesky }],
        },
      });
      expect(code, status).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues).toEqual([
        { path: 'targets[1].content', message: '301 of 300 allowed on Bluesky (1 over).' },
      ]);
    }
    expect((await h.db.select().from(posts)).length).toBe(before);
  });

  it('is refused on PUT too, and the post stays as it was', async () => {
    const post = await createPost(h, {
      title: 'T',
      content: long(301),
      targets: [{ channelId: bluesky }],
    });
    const scheduling = await put(post.id, { status: 'scheduled', scheduledAt: inAnHour() });
    expect(scheduling.status).toBe(400);
    expect(scheduling.json.error.details.issues[0].path).toBe('targets[0].content');
    const publishing = await put(post.id, { status: 'published' });
    expect(publishing.status).toBe(400);
    expect((await h.call('GET', `/api/content/posts/${post.id}`)).json.data.status).toBe('draft');
    // A scheduled post edited into an invalid one is refused as well.
    const scheduled = await createPost(h, {
      title: 'T',
      content: 'x',
      status: 'scheduled',
      scheduledAt: inAnHour(),
      targets: [{ channelId: bluesky }],
    });
    const edit = await put(scheduled.id, { content: long(301) });
    expect(edit.status).toBe(400);
    expect((await put(scheduled.id, { content: 'short' })).status).toBe(200);
  });
});

describe('publish now', () => {
  it('answers a post with targets in publishing, its targets pending, with post.publishing', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts', {
      body: { title: 'Now', content: 'Hi', status: 'published', targets: [{ channelId: bluesky }] },
    });
    expect(status).toBe(201);
    expect(json.data).toMatchObject({ status: 'publishing', publishedAt: null });
    expect(json.data.targets.map((t: { status: string }) => t.status)).toEqual(['pending']);
    const types = (await eventsOf(h, json.data.id)).map((e) => e.type);
    expect(types).toEqual(['post.created', 'post.publishing']);
    const publishingEvent = (await eventsOf(h, json.data.id))[1];
    expect((publishingEvent?.data.object as { targets: unknown[] }).targets).toHaveLength(1);
  });

  it('by PUT from a draft or a scheduled post: the targets become due again', async () => {
    for (const start of ['draft', 'scheduled']) {
      const post = await createPost(h, {
        title: 'T',
        content: 'x',
        status: start,
        ...(start === 'scheduled' ? { scheduledAt: inAnHour() } : {}),
        targets: [{ channelId: bluesky }, { channelId: mastodon }],
      });
      const [first = { id: '' }] = post.targets as { id: string }[];
      await setTarget(h, first.id, { attempts: 3, nextAttemptAt: new Date(Date.now() + 60_000) });
      const { status, json } = await put(post.id, { status: 'published' });
      expect(status).toBe(200);
      expect(json.data.status).toBe('publishing');
      const row = await targetRow(h, first.id);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: null,
        error: null,
      });
      // Only the engine moves a post out of publishing.
      const refused = await put(post.id, { status: 'draft' });
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('invalid_status_transition');
    }
  });

  it('keeps a post without targets as it was: published at once', async () => {
    const post = await createPost(h, { title: 'T', status: 'published' });
    expect(post.status).toBe('published');
    expect(post.targets).toEqual([]);
  });

  it('needs content:write, on both doors, for every user of the account', async () => {
    const reader = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
    const refused = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', status: 'published', targets: [{ channelId: bluesky }] },
      token: reader,
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect(await h.db.select().from(postTargets).where(eq(postTargets.channelId, foreign))).toEqual(
      [],
    );
    const member = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@targets.test', password: 'a-long-password' },
    });
    const memberKey = (await h.keyFor(member.json.id)).secret;
    const byMember = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', content: 'x', status: 'published', targets: [{ channelId: bluesky }] },
      token: memberKey,
    });
    expect(byMember.status).toBe(201);
    expect(byMember.json.data.status).toBe('publishing');
  });
});
