import { eq, postMedia, posts } from '@chorus/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { fixture, upload } from './media-fixtures';
import { createPost, inAnHour } from './posts-fixtures';
import { channelOf } from './targets-fixtures';

/**
 * A medium's alt text goes out with the posts that send it: while one of them waits for
 * approval, is approved (scheduled) or is publishing, the alt text changes only as the post's
 * media would (docs/media.md, docs/workflow.md).
 */

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
/** A member (`user` role) of the main account, with every scope. */
let member: string;
let channelId: string;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  member = (await h.keyFor(created.json.id)).secret;
  channelId = await channelOf(h, h.main.accountId, 'mastodon');
});
afterAll(() => h?.close());

const setApproval = async (requireApproval: boolean, token?: string) => {
  const { status } = await h.call('PUT', '/api/account/settings', {
    body: { requireApproval },
    token,
  });
  expect(status).toBe(200);
};
beforeEach(() => setApproval(true));

const act = (id: string, action: string, body: unknown = {}, token?: string) =>
  h.call('POST', `/api/content/posts/${id}/${action}`, { body, token });
const putAlt = (id: string, altText: string | null, token?: string) =>
  h.call('PUT', `/api/content/media/${id}`, { body: { altText }, token });
const altOf = async (id: string) =>
  (await h.call('GET', `/api/content/media/${id}`)).json.data.altText as string | null;
const actionsOf = async (id: string) =>
  (await h.call('GET', `/api/content/posts/${id}/activity?limit=100`)).json.data.map(
    (entry: { action: string }) => entry.action,
  ) as string[];

async function png(token?: string, altText = 'Approved text') {
  const { status, json } = await upload(h, fixture('pixel.png'), {
    filename: 'pixel.png',
    altText,
    token,
  });
  expect(status).toBe(201);
  return json.data.id as string;
}

/** The member's post sending `body`'s media to Mastodon, submitted for a time in an hour. */
async function submitted(body: Record<string, unknown>) {
  const post = await createPost(
    h,
    { title: 'Launch', content: 'Hello', targets: [{ channelId }], ...body },
    member,
  );
  const { status, json } = await act(post.id, 'submit', { scheduledAt: inAnHour() }, member);
  expect(status, JSON.stringify(json)).toBe(200);
  expect(json.data.status).toBe('pending_approval');
  return post.id;
}

async function approved(body: Record<string, unknown>) {
  const id = await submitted(body);
  const { status, json } = await act(id, 'approve');
  expect(status, JSON.stringify(json)).toBe(200);
  expect(json.data.status).toBe('scheduled');
  return id;
}

describe('a member changing the alt text of media a post sends, with approval on', () => {
  it('is refused once an admin approved the post (403 approval_required naming it); nothing changes', async () => {
    const mediaId = await png(member);
    const postId = await approved({ mediaIds: [mediaId] });
    const before = await actionsOf(postId);

    const { status, json } = await putAlt(mediaId, 'UNAPPROVED TEXT', member);
    expect(status).toBe(403);
    expect(json).toMatchObject({
      success: false,
      error: { code: 'approval_required', status: 403, details: { postId } },
    });
    expect(json.error.message).toContain(postId);
    expect(json.error.message).toContain(mediaId);
    expect(await altOf(mediaId)).toBe('Approved text');
    expect(await actionsOf(postId)).toEqual(before);
    // Clearing it is a change too.
    expect((await putAlt(mediaId, null, member)).status).toBe(403);
  });

  it('is refused while the post waits for approval (400 naming altText and the post)', async () => {
    const mediaId = await png(member);
    const postId = await submitted({ mediaIds: [mediaId] });
    const { status, json } = await putAlt(mediaId, 'UNAPPROVED TEXT', member);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: 'validation_error',
      details: { postId, issues: [{ path: 'altText' }] },
    });
    expect(json.error.details.issues[0].message).toContain(postId);
    expect(await altOf(mediaId)).toBe('Approved text');
  });

  it('is refused for media an approved post sends through a target or a thread part', async () => {
    const [own, threaded] = [await png(member), await png(member)];
    const postId = await approved({
      targets: [
        { channelId, mediaIds: [own], thread: [{ content: 'More', mediaIds: [threaded] }] },
      ],
    });
    for (const mediaId of [own, threaded]) {
      const { status, json } = await putAlt(mediaId, 'UNAPPROVED TEXT', member);
      expect(status).toBe(403);
      expect(json.error.details.postId).toBe(postId);
    }
  });

  it('is refused for an admin’s medium in the admin’s scheduled post too', async () => {
    const mediaId = await png();
    const post = await createPost(h, {
      title: 'Admin’s',
      status: 'scheduled',
      scheduledAt: inAnHour(),
      mediaIds: [mediaId],
    });
    const { status, json } = await putAlt(mediaId, 'UNAPPROVED TEXT', member);
    expect(status).toBe(403);
    expect(json.error.details.postId).toBe(post.id);
  });

  it('still changes media of drafts, of published posts, and the same text again is no change', async () => {
    const mediaId = await png();
    const draft = await createPost(h, { title: 'Draft', mediaIds: [mediaId] }, member);
    expect((await putAlt(mediaId, 'Draft text', member)).status).toBe(200);
    await createPost(h, { title: 'Out', status: 'published', mediaIds: [mediaId] });
    expect((await putAlt(mediaId, 'Later text', member)).status).toBe(200);
    expect(await altOf(mediaId)).toBe('Later text');
    expect(await actionsOf(draft.id)).toEqual(['created']);

    const sent = await png(member, 'Kept');
    await approved({ mediaIds: [sent] });
    const same = await putAlt(sent, 'Kept', member);
    expect(same.status).toBe(200);
    expect(same.json.data.altText).toBe('Kept');
  });

  it('may still delete the medium: the post is then refused or fails, never sent without it', async () => {
    const mediaId = await png(member);
    const postId = await approved({ mediaIds: [mediaId] });
    expect(
      (await h.call('DELETE', `/api/content/media/${mediaId}`, { token: member })).status,
    ).toBe(204);
    const post = await h.call('GET', `/api/content/posts/${postId}`);
    expect(post.json.data).toMatchObject({ status: 'scheduled', mediaIds: [mediaId] });
  });
});

describe('an admin', () => {
  it('changes the alt text of media a pending or an approved post sends', async () => {
    const mediaId = await png(member);
    const pendingId = await submitted({ mediaIds: [mediaId] });
    expect((await putAlt(mediaId, 'Reviewed text')).status).toBe(200);
    const scheduled = await png(member);
    await approved({ mediaIds: [scheduled] });
    const { status, json } = await putAlt(scheduled, 'Admin’s text');
    expect(status).toBe(200);
    expect(json.data.altText).toBe('Admin’s text');
    expect(await altOf(mediaId)).toBe('Reviewed text');
    expect((await act(pendingId, 'approve')).json.data.status).toBe('scheduled');
  });

  it('does not change the alt text of media a publishing post is sending (400 naming it)', async () => {
    const mediaId = await png();
    const post = await createPost(h, { title: 'Going', mediaIds: [mediaId] });
    await h.db.update(posts).set({ status: 'publishing' }).where(eq(posts.id, post.id));
    const { status, json } = await putAlt(mediaId, 'Mid-flight');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: 'validation_error',
      details: { postId: post.id, issues: [{ path: 'altText' }] },
    });
    expect(await altOf(mediaId)).toBe('Approved text');
  });
});

describe('without approval, and across accounts', () => {
  it('a member changes the alt text of a scheduled post’s medium; a pending post still keeps its own', async () => {
    await setApproval(false);
    const mediaId = await png(member);
    const post = await createPost(
      h,
      { title: 'Mine', status: 'scheduled', scheduledAt: inAnHour(), mediaIds: [mediaId] },
      member,
    );
    expect(post.status).toBe('scheduled');
    expect((await putAlt(mediaId, 'Fine', member)).status).toBe(200);
    // Submitted without approval required: still what its author submitted.
    const waiting = await png(member);
    await submitted({ mediaIds: [waiting] });
    expect((await putAlt(waiting, 'Changed', member)).status).toBe(400);
  });

  it('another account’s posts do not refuse this account’s media, nor reach them', async () => {
    await setApproval(true, other.token);
    const mediaId = await png(member);
    // A post of theirs naming our medium (post_media has no foreign key; the API refuses a
    // foreign id, so it is written directly): its status is not ours to answer to.
    const theirs = await createPost(
      h,
      { title: 'Theirs', status: 'scheduled', scheduledAt: inAnHour() },
      other.token,
    );
    await h.db.insert(postMedia).values({ postId: theirs.id, mediaId, position: 0 });
    expect((await putAlt(mediaId, 'Ours', member)).status).toBe(200);
    // Another account's credential finds no such medium.
    expect((await putAlt(mediaId, 'Theirs', other.token)).status).toBe(404);
    expect(await altOf(mediaId)).toBe('Ours');
    const their = await png(other.token);
    await createPost(
      h,
      { title: 'Theirs', status: 'scheduled', scheduledAt: inAnHour(), mediaIds: [their] },
      other.token,
    );
    expect((await putAlt(their, 'x', member)).status).toBe(404);
    expect((await putAlt(their, 'Their admin’s', other.token)).status).toBe(200);
  });
});

it('the OpenAPI document lists the refusal and says when', async () => {
  const { json } = await h.call('GET', '/api/openapi.json', { token: null });
  const put = json.paths['/api/content/media/{id}'].put;
  const [, narrowed] = put.responses['403'].content['application/json'].schema.allOf;
  expect(narrowed.properties.error.properties.code.enum).toContain('approval_required');
  expect(put.description).toContain('`details.postId`');
});
