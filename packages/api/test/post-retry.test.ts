import { eq, posts } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { createPost, eventsOf } from './posts-fixtures';
import { testRateLimiter } from './rate-limiter';
import { channelOf, setTarget, targetRow } from './targets-fixtures';

/** Retry and resolve (docs/publishing.md): the client's ways out of a failed post. */

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

type Outcome = 'published' | 'failed' | 'unconfirmed';
const FAILED = { code: 'rejected', message: 'Validation failed: Text too long', retryable: true };

/** A post that went out and ended as the engine leaves it: targets with these outcomes. */
async function endedPost(outcomes: Outcome[], token?: string) {
  const channelIds = [bluesky, mastodon, x].slice(0, outcomes.length);
  const post = await createPost(
    h,
    {
      title: 'Ended',
      content: 'Hello',
      status: 'published',
      targets: channelIds.map((channelId) => ({ channelId })),
    },
    token,
  );
  const targets = post.targets as { id: string }[];
  for (const [index, status] of outcomes.entries()) {
    const id = targets[index]?.id ?? '';
    await setTarget(h, id, {
      status,
      attempts: 2,
      ...(status === 'published'
        ? {
            externalId: `ext-${index}`,
            url: `https://example.net/${index}`,
            publishedAt: new Date(),
          }
        : {}),
      ...(status === 'failed' ? { error: FAILED } : {}),
      ...(status === 'unconfirmed'
        ? { error: { code: 'unconfirmed', message: 'Timed out', retryable: false } }
        : {}),
    });
  }
  const ended = outcomes.every((o) => o === 'published') ? 'published' : 'failed';
  await h.db.update(posts).set({ status: ended }).where(eq(posts.id, post.id));
  return { id: post.id, targets: targets.map((t) => t.id) };
}

const retry = (id: string, token?: string) =>
  h.call('POST', `/api/content/posts/${id}/retry`, { body: {}, token });
const resolve = (id: string, targetId: string, body: Record<string, unknown>, token?: string) =>
  h.call('POST', `/api/content/posts/${id}/targets/${targetId}/resolve`, { body, token });

describe('POST /api/content/posts/{id}/retry', () => {
  it('sends the failed targets again, never the published ones', async () => {
    const post = await endedPost(['published', 'failed']);
    const { status, json } = await retry(post.id);
    expect(status).toBe(200);
    expect(json.data.status).toBe('publishing');
    const [published, failed] = json.data.targets;
    expect(published).toMatchObject({ status: 'published', externalId: 'ext-0', attempts: 2 });
    expect(failed).toMatchObject({ status: 'pending', attempts: 0, error: null });
    const row = await targetRow(h, post.targets[1] ?? '');
    expect(row).toMatchObject({ nextAttemptAt: null, firstAttemptAt: null });
    expect((await eventsOf(h, post.id)).at(-1)?.type).toBe('post.publishing');
  });

  it('leaves unconfirmed targets to be resolved, and is 409 when only those are left', async () => {
    const mixed = await endedPost(['unconfirmed', 'failed']);
    const { json } = await retry(mixed.id);
    expect(json.data.targets.map((t: { status: string }) => t.status)).toEqual([
      'unconfirmed',
      'pending',
    ]);
    const onlyUnconfirmed = await endedPost(['published', 'unconfirmed']);
    const refused = await retry(onlyUnconfirmed.id);
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('invalid_status_transition');
  });

  it('checks the targets it sends as publishing does: an edit the network would refuse is 400', async () => {
    const post = await endedPost(['published', 'failed']);
    // A failed post can be edited (its content fixed, or made worse) before its retry.
    const edited = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { content: 'a'.repeat(600) },
    });
    expect(edited.status).toBe(200);
    const { status, json } = await retry(post.id);
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    // Only the target it would send (Mastodon, 500) is named, not the published Bluesky one.
    expect(json.error.details.issues).toEqual([
      { path: 'targets[1].content', message: expect.stringContaining('600 of 500') },
    ]);
    expect((await targetRow(h, post.targets[1] ?? ''))?.status).toBe('failed');
    const [row] = await h.db.select().from(posts).where(eq(posts.id, post.id));
    expect(row?.status).toBe('failed');
  });

  it('is 409 for a post that is not failed', async () => {
    const published = await endedPost(['published']);
    const draft = await createPost(h, { title: 'Draft' });
    for (const id of [published.id, draft.id]) {
      const { status, json } = await retry(id);
      expect(status).toBe(409);
      expect(json.error.code).toBe('invalid_status_transition');
      expect(json.error.details.currentStatus).toBeDefined();
    }
    // Publishing now: a second retry while the first runs is refused too.
    const failed = await endedPost(['failed']);
    expect((await retry(failed.id)).status).toBe(200);
    expect((await retry(failed.id)).status).toBe(409);
  });
});

describe('POST /api/content/posts/{id}/targets/{targetId}/resolve', () => {
  it('published: true makes the target published; the post ends published when all are', async () => {
    const post = await endedPost(['published', 'unconfirmed']);
    const url = 'https://mastodon.example/@acme/1';
    const { status, json } = await resolve(post.id, post.targets[1] ?? '', {
      published: true,
      url,
    });
    expect(status).toBe(200);
    expect(json.data.status).toBe('published');
    expect(json.data.publishedAt).not.toBeNull();
    expect(json.data.targets[1]).toMatchObject({ status: 'published', url, error: null });
    expect((await eventsOf(h, post.id)).at(-1)?.type).toBe('post.published');
  });

  it('published: false makes it failed and retryable; the post stays failed, then retry sends it', async () => {
    const post = await endedPost(['published', 'unconfirmed']);
    const { json } = await resolve(post.id, post.targets[1] ?? '', { published: false });
    expect(json.data.status).toBe('failed');
    expect(json.data.targets[1]).toMatchObject({
      status: 'failed',
      error: { code: 'not_published', retryable: true },
    });
    const retried = await retry(post.id);
    expect(retried.json.data.targets.map((t: { status: string }) => t.status)).toEqual([
      'published',
      'pending',
    ]);
  });

  it('a failed post that stays failed is updated, not failed again: post.updated', async () => {
    for (const [outcomes, published] of [
      [['published', 'unconfirmed'], false],
      [['failed', 'unconfirmed'], true],
      [['failed', 'unconfirmed'], false],
    ] as const) {
      const post = await endedPost([...outcomes]);
      const before = (await eventsOf(h, post.id)).length;
      const [row] = await h.db.select().from(posts).where(eq(posts.id, post.id));
      const { status, json } = await resolve(post.id, post.targets[1] ?? '', { published });
      expect(status).toBe(200);
      expect(json.data.status).toBe('failed');
      expect(json.data.targets[1].status).toBe(published ? 'published' : 'failed');
      // Nothing was sent and the post's end is the same: the change is its target's.
      const after = (await eventsOf(h, post.id)).slice(before);
      expect(after.map((event) => event.type)).toEqual(['post.updated']);
      expect(after[0]?.data.object).toEqual(json.data);
      expect(new Date(json.data.updatedAt).getTime()).toBeGreaterThan(
        row?.updatedAt.getTime() ?? Infinity,
      );
    }
  });

  it('is 409 for a target that is not unconfirmed, 404 for another post’s target', async () => {
    const post = await endedPost(['published', 'unconfirmed']);
    const notUnconfirmed = await resolve(post.id, post.targets[0] ?? '', { published: true });
    expect(notUnconfirmed.status).toBe(409);
    expect(notUnconfirmed.json.error.code).toBe('invalid_status_transition');
    const another = await endedPost(['unconfirmed']);
    const elsewhere = await resolve(post.id, another.targets[0] ?? '', { published: true });
    expect(elsewhere.status).toBe(404);
    const bad = await resolve(post.id, post.targets[1] ?? '', {
      published: false,
      url: 'https://a.b/',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.issues[0].path).toBe('url');
    const noBody = await resolve(post.id, post.targets[1] ?? '', {});
    expect(noBody.status).toBe(400);
    // Nothing changed on the refused calls.
    expect((await targetRow(h, post.targets[1] ?? ''))?.status).toBe('unconfirmed');
  });
});

describe('tenancy, scopes and doors', () => {
  it('another account’s post and target are as unknown as missing ones', async () => {
    const post = await endedPost(['failed', 'unconfirmed']);
    const other = await h.newAccount('Other', 'other@retry.test');
    const refusedRetry = await retry(post.id, other.token);
    expect(refusedRetry.status).toBe(404);
    expect(refusedRetry.json.error.code).toBe('resource_not_found');
    const refusedResolve = await resolve(
      post.id,
      post.targets[1] ?? '',
      { published: true },
      other.token,
    );
    expect(refusedResolve.status).toBe(404);
    expect((await targetRow(h, post.targets[0] ?? ''))?.status).toBe('failed');
    expect((await targetRow(h, post.targets[1] ?? ''))?.status).toBe('unconfirmed');
  });

  it('need content:write; every user of the account may use them', async () => {
    const post = await endedPost(['failed', 'unconfirmed']);
    const reader = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
    for (const res of [
      await retry(post.id, reader),
      await resolve(post.id, post.targets[1] ?? '', { published: true }, reader),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error.details.requiredScopes).toEqual(['content:write']);
    }
    const member = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@retry.test', password: 'a-long-password' },
    });
    const memberKey = (await h.keyFor(member.json.id, ['content:write'])).secret;
    expect(
      (await resolve(post.id, post.targets[1] ?? '', { published: false }, memberKey)).status,
    ).toBe(200);
    expect((await retry(post.id, memberKey)).status).toBe(200);
  });

  it('answer the same on the tRPC door', async () => {
    const post = await endedPost(['failed']);
    const trpc = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
    });
    const res = await trpc(
      new Request('http://localhost/api/trpc/posts.retry', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: post.id }),
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { data: { data: { status: string } } } };
    expect(body.result.data.data.status).toBe('publishing');
  });
});
