import { eq, posts } from '@chorus/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, eventsOf, inAnHour } from './posts-fixtures';
import { channelOf } from './targets-fixtures';

/** Approval: a `user` member's post waits for an admin while the account requires it. */

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
/** A member (`user` role) of the main account, with every scope. */
let member: string;
let memberId: string;
/** The same member with every scope but `content:write`. */
let memberReadOnly: string;
/** The main account's admin with every scope but `content:write`. */
let adminReadOnly: string;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  memberId = created.json.id;
  member = (await h.keyFor(memberId)).secret;
  const allButWrite = ['read', 'write', 'content:read', 'analytics:read'] as const;
  memberReadOnly = (await h.keyFor(memberId, [...allButWrite])).secret;
  adminReadOnly = (await h.keyFor(h.main.adminId, [...allButWrite])).secret;
});
afterAll(() => h?.close());

const setApproval = async (requireApproval: boolean) => {
  const { status } = await h.call('PUT', '/api/account/settings', { body: { requireApproval } });
  expect(status).toBe(200);
};
beforeEach(() => setApproval(true));

const act = (id: string, action: string, body?: unknown, token?: string) =>
  h.call('POST', `/api/content/posts/${id}/${action}`, { body: body ?? {}, token });
const put = (id: string, body: unknown, token?: string) =>
  h.call('PUT', `/api/content/posts/${id}`, { body, token });
const statusOf = async (id: string) => (await h.call('GET', `/api/content/posts/${id}`)).json.data;
const typesOf = async (id: string) => (await eventsOf(h, id)).map((event) => event.type);

/** A draft of the member's, submitted for approval (at `scheduledAt` when given). */
async function pending(scheduledAt?: string) {
  const post = await createPost(h, { title: 'Needs review', content: 'Hi' }, member);
  const { status, json } = await act(post.id, 'submit', scheduledAt ? { scheduledAt } : {}, member);
  expect(status, JSON.stringify(json)).toBe(200);
  return json.data as { id: string; status: string };
}

describe('a user while the account requires approval', () => {
  it('cannot create a post scheduled or published (403 approval_required), only a draft', async () => {
    for (const body of [
      { title: 'x', status: 'scheduled', scheduledAt: inAnHour() },
      { title: 'x', status: 'published' },
    ]) {
      const { status, json } = await h.call('POST', '/api/content/posts', { body, token: member });
      expect(status).toBe(403);
      expect(json.error).toMatchObject({ code: 'approval_required', status: 403 });
    }
    await createPost(h, { title: 'x' }, member);
  });

  it('cannot schedule, publish, or change a scheduled post; can move it back to draft', async () => {
    const draft = await createPost(h, { title: 'Mine' }, member);
    for (const body of [
      { status: 'scheduled', scheduledAt: inAnHour() },
      { status: 'published' },
    ]) {
      const { status, json } = await put(draft.id, body, member);
      expect(status).toBe(403);
      expect(json.error.code).toBe('approval_required');
    }
    expect((await statusOf(draft.id)).status).toBe('draft');

    // Scheduled by an admin (or before approval was turned on): the member may not change it.
    const scheduled = await createPost(
      h,
      { title: 'Approved', status: 'scheduled', scheduledAt: inAnHour() },
      h.main.token,
    );
    const edit = await put(scheduled.id, { title: 'Changed' }, member);
    expect(edit.status).toBe(403);
    expect((await statusOf(scheduled.id)).title).toBe('Approved');
    const back = await put(scheduled.id, { status: 'draft' }, member);
    expect(back.status).toBe(200);
    expect(back.json.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('cannot retry a failed post (retrying publishes)', async () => {
    const post = await createPost(h, { title: 'Failed' }, member);
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
    const { status, json } = await act(post.id, 'retry', undefined, member);
    expect(status).toBe(403);
    expect(json.error.code).toBe('approval_required');
  });

  it('can schedule and publish once approval is off, and an admin always can', async () => {
    const admin = await h.call('POST', '/api/content/posts', {
      body: { title: 'Admin', status: 'scheduled', scheduledAt: inAnHour() },
    });
    expect(admin.status).toBe(201);
    await setApproval(false);
    const user = await h.call('POST', '/api/content/posts', {
      body: { title: 'Free', status: 'published' },
      token: member,
    });
    expect(user.status).toBe(201);
    expect(user.json.data.status).toBe('published');
  });

  it('has an import with a scheduled row refused on that row, and nothing written', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts/import', {
      body: { posts: [{ title: 'Plain' }, { title: 'Later', scheduledAt: inAnHour() }] },
      token: member,
    });
    expect(status).toBe(400);
    expect(json.error.details.issues).toEqual([
      expect.objectContaining({ row: 2, path: 'scheduledAt' }),
    ]);
  });
});

describe('submit, approve, reject', () => {
  it('submits a draft: pending_approval with the wished time, post.submitted', async () => {
    const at = inAnHour();
    const post = await pending(at);
    expect(post).toMatchObject({ status: 'pending_approval', scheduledAt: at, rejection: null });
    expect(await typesOf(post.id)).toEqual(['post.created', 'post.submitted']);
  });

  it('approves into scheduled at the wished time: post.approved, then post.scheduled', async () => {
    const at = inAnHour();
    const post = await pending(at);
    const { status, json } = await act(post.id, 'approve');
    expect(status).toBe(200);
    expect(json.data).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect(await typesOf(post.id)).toEqual([
      'post.created',
      'post.submitted',
      'post.approved',
      'post.scheduled',
    ]);
  });

  it('approves into published when no time was wished, or the time has passed', async () => {
    const now = await pending();
    const approved = await act(now.id, 'approve');
    expect(approved.json.data).toMatchObject({ status: 'published', scheduledAt: null });
    expect(approved.json.data.publishedAt).not.toBeNull();
    expect((await typesOf(now.id)).slice(-2)).toEqual(['post.approved', 'post.published']);

    const late = await pending(inAnHour());
    const past = new Date(Date.now() - 60_000);
    await h.db.update(posts).set({ scheduledAt: past }).where(eq(posts.id, late.id));
    expect((await act(late.id, 'approve')).json.data.status).toBe('published');
  });

  it('approves a post with targets into publishing (its targets due)', async () => {
    const channelId = await channelOf(h, h.main.accountId, 'mastodon');
    const post = await createPost(
      h,
      { title: 'Out', content: 'Hello', targets: [{ channelId }] },
      member,
    );
    expect((await act(post.id, 'submit', {}, member)).status).toBe(200);
    const { status, json } = await act(post.id, 'approve');
    expect(status).toBe(200);
    expect(json.data.status).toBe('publishing');
    expect(json.data.targets[0].status).toBe('pending');
    expect((await typesOf(post.id)).slice(-3)).toEqual([
      'post.submitted',
      'post.approved',
      'post.publishing',
    ]);
  });

  it('rejects with a required comment; the author reads it until submitting again', async () => {
    const post = await pending(inAnHour());
    for (const body of [{}, { comment: '   ' }, { comment: 'x'.repeat(2001) }]) {
      const refused = await act(post.id, 'reject', body);
      expect(refused.status).toBe(400);
      expect(refused.json.error.details.issues[0].path).toBe('comment');
    }
    expect((await statusOf(post.id)).status).toBe('pending_approval');

    const { status, json } = await act(post.id, 'reject', { comment: ' Add the link. ' });
    expect(status).toBe(200);
    expect(json.data).toMatchObject({
      status: 'draft',
      scheduledAt: null,
      rejection: { comment: 'Add the link.', rejectedBy: h.main.adminId },
    });
    expect(Date.parse(json.data.rejection.rejectedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await typesOf(post.id)).at(-1)).toBe('post.rejected');
    const seen = await h.call('GET', `/api/content/posts/${post.id}`, { token: member });
    expect(seen.json.data.rejection.comment).toBe('Add the link.');

    const again = await act(post.id, 'submit', {}, member);
    expect(again.json.data).toMatchObject({ status: 'pending_approval', rejection: null });
  });

  it('refuses each action from any other status (409), and a past wished time (400)', async () => {
    const draft = await createPost(h, { title: 'D' }, member);
    for (const action of ['approve', 'reject']) {
      const { status, json } = await act(draft.id, action, { comment: 'no' });
      expect(status).toBe(409);
      expect(json.error).toMatchObject({
        code: 'invalid_status_transition',
        details: { currentStatus: 'draft' },
      });
    }
    const past = await act(draft.id, 'submit', { scheduledAt: '2020-01-01T00:00:00Z' }, member);
    expect(past.status).toBe(400);
    expect(past.json.error.details.issues[0].path).toBe('scheduledAt');
    const post = await pending();
    const twice = await act(post.id, 'submit', {}, member);
    expect(twice.status).toBe(409);
    expect(twice.json.error.details.currentStatus).toBe('pending_approval');
  });

  it('keeps submit and approve out of a status change in a body; withdrawing is one', async () => {
    const draft = await createPost(h, { title: 'D' });
    const submit = await put(draft.id, { status: 'pending_approval' });
    expect(submit.status).toBe(409);
    expect(submit.json.error.message).toContain('/submit');
    const created = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'pending_approval' },
    });
    expect(created.status).toBe(409);

    const post = await pending(inAnHour());
    for (const body of [
      { status: 'scheduled', scheduledAt: inAnHour() },
      { status: 'published' },
    ]) {
      const { status, json } = await put(post.id, body);
      expect(status).toBe(409);
      expect(json.error.details.allowedStatuses).toEqual(['draft']);
    }
    const withdrawn = await put(post.id, { status: 'draft' }, member);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });
});

describe('a post awaiting approval', () => {
  it('keeps what its author submitted: the author withdraws to edit; an admin may edit before approving', async () => {
    const post = await pending();
    for (const body of [
      { content: 'EVIL content' },
      { title: 'Other' },
      { tags: ['x'] },
      { content: 'Hi', title: 'Changed' },
    ]) {
      const { status, json } = await put(post.id, body, member);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.message).toContain('withdraw it to draft');
    }
    // The same values again change nothing, so nothing is refused.
    expect((await put(post.id, { title: 'Needs review', content: 'Hi' }, member)).status).toBe(200);
    expect(await statusOf(post.id)).toMatchObject({ title: 'Needs review', content: 'Hi' });
    // An admin, who approves it, may fix it first; what is approved is what the admin saw.
    const fixed = await put(post.id, { content: 'Hi, fixed' });
    expect(fixed.status).toBe(200);
    expect(fixed.json.data).toMatchObject({ status: 'pending_approval', content: 'Hi, fixed' });
    // Withdrawing and editing in one update is the author's way.
    const withdrawn = await put(post.id, { status: 'draft', content: 'Second try' }, member);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json.data).toMatchObject({ status: 'draft', content: 'Second try' });
  });
});

describe('who may submit, approve and reject', () => {
  it('lets only admins approve or reject (403 forbidden for a user)', async () => {
    const post = await pending();
    for (const [action, body] of [
      ['approve', {}],
      ['reject', { comment: 'no' }],
    ] as const) {
      const { status, json } = await act(post.id, action, body, member);
      expect(status).toBe(403);
      expect(json.error.code).toBe('forbidden');
    }
    expect((await statusOf(post.id)).status).toBe('pending_approval');
  });

  it('needs content:write for each action (403 insufficient_scope)', async () => {
    const post = await pending();
    const draft = await createPost(h, { title: 'D' }, member);
    const cases = [
      [draft.id, 'submit', memberReadOnly],
      [post.id, 'approve', adminReadOnly],
      [post.id, 'reject', adminReadOnly],
    ] as const;
    for (const [id, action, token] of cases) {
      const { status, json } = await act(id, action, { comment: 'no' }, token);
      expect(status).toBe(403);
      expect(json.error.code).toBe('insufficient_scope');
    }
    expect((await statusOf(post.id)).status).toBe('pending_approval');
    expect((await statusOf(draft.id)).status).toBe('draft');
  });

  it("treats another account's post as unknown (404) and leaves it alone", async () => {
    const post = await pending();
    const draft = await createPost(h, { title: 'D' }, member);
    for (const [id, action] of [
      [draft.id, 'submit'],
      [post.id, 'approve'],
      [post.id, 'reject'],
    ] as const) {
      const { status, json } = await act(id, action, { comment: 'no' }, other.token);
      expect(status).toBe(404);
      expect(json.error.code).toBe('resource_not_found');
    }
    expect((await statusOf(post.id)).status).toBe('pending_approval');
    expect((await statusOf(draft.id)).status).toBe('draft');
    expect((await act('post_nope', 'approve')).status).toBe(404);
  });
});
