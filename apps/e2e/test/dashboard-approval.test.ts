/**
 * Approval as people use it, in Chromium against `npm start`: with approval on, a member
 * submits a draft from the composer (which offers no Schedule, and no change to a scheduled
 * post but back to draft); an admin rejects it from the "Awaiting approval" queue (an empty comment is
 * refused beside its field); the member reads the comment and the activity, submits again; the
 * admin approves and the post is published. The member is offered no calendar move and no
 * retry of a failed post, which the API would refuse them; the queue pages through every
 * pending post. axe at 1280 and 375 px on the queue, the reject dialog, the post page and the
 * member's composer.
 */
import { mastodonFaults } from '@chorus/stand-ins';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { focused, launchChromium, seriousViolations, signedIn } from './browser';
import { DAY_MS } from './calendar-words';
import { cliApiKey } from './cli';
import { connectMastodon, disconnect } from './publishing-fixtures';
import { ADMIN } from './server';

const base = inject('base');
const MEMBER = { name: 'Rae Review', email: 'rae-approval@e2e.test', password: 'rae-password' };
const TITLE = `Needs review ${Date.now()}`;
let browser: Browser;
let key = '';
let memberKey = '';
let postId = '';

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-approval',
    'read,write,content:read,content:write',
  );
  const created = await callApi(key, 'POST', '/api/users', { ...MEMBER, role: 'user' });
  expect([201, 400]).toContain(created.status);
  memberKey = await cliApiKey(MEMBER.email, 'e2e-approval-member', 'content:read,content:write');
  const post = await callApi(memberKey, 'POST', '/api/content/posts', { title: TITLE });
  expect(post.status).toBe(201);
  postId = post.json.data.id;
  await callApi(key, 'PUT', '/api/account/settings', { requireApproval: true });
  browser = await launchChromium();
});
afterAll(async () => {
  // Other files share the account: approval goes back off.
  if (key) await callApi(key, 'PUT', '/api/account/settings', { requireApproval: false });
  await browser?.close();
});

const statusOf = async () =>
  (await callApi(memberKey, 'GET', `/api/content/posts/${postId}`)).json.data.status;

async function memberSubmits(page: Page) {
  await page.goto(`/dashboard/posts/${postId}`);
  await page.getByRole('button', { name: 'Submit for approval' }).click();
  await page.getByRole('status').getByText(`Submitted “${TITLE}” for approval.`).waitFor();
  expect(await statusOf()).toBe('pending_approval');
}

describe('approval in the dashboard', () => {
  it('a member submits; an admin rejects with a required comment; the member reads it', async () => {
    const member = await signedIn(browser, base, MEMBER);
    await member.goto(`/dashboard/posts/${postId}`);
    // A member who must submit is not offered publishing.
    expect(await member.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
    await memberSubmits(member);

    const admin = await signedIn(browser, base, ADMIN);
    await admin.goto('/dashboard/posts');
    await admin.getByRole('link', { name: 'Awaiting approval' }).click();
    await admin.getByRole('heading', { name: 'Awaiting approval', level: 1 }).waitFor();
    await admin.getByRole('link', { name: TITLE }).waitFor();
    await admin.getByRole('button', { name: `Reject “${TITLE}”` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reject this post?' });
    await dialog.getByRole('button', { name: 'Reject post' }).click();
    const comment = dialog.getByLabel('Comment for the author');
    await dialog.getByText('A rejection needs a comment.').waitFor();
    expect(await comment.getAttribute('aria-invalid')).toBe('true');
    expect(await statusOf()).toBe('pending_approval');
    await comment.fill('Add the launch link.');
    await dialog.getByRole('button', { name: 'Reject post' }).click();
    await admin.getByRole('status').getByText(`Rejected “${TITLE}”`, { exact: false }).waitFor();
    expect(await statusOf()).toBe('draft');
    // The post left the list with the button that opened the dialog: focus goes to the page's
    // heading, not to the body (the top of the page, with no word of where).
    await admin.getByRole('link', { name: TITLE }).waitFor({ state: 'detached' });
    await expect.poll(() => focused(admin)).toBe('h1: Awaiting approval');

    await member.goto(`/dashboard/posts/${postId}`);
    const note = member.getByRole('note', { name: 'Rejected' });
    await note.getByText('Add the launch link.').waitFor();
    const activity = member.getByRole('region', { name: 'Activity' });
    await activity.getByText('rejected it: “Add the launch link.”', { exact: false }).waitFor();
    await activity.getByText('submitted it for approval').waitFor();
    await admin.context().close();
    await member.context().close();
  });

  it('the member submits again and the admin approves: published', async () => {
    const member = await signedIn(browser, base, MEMBER);
    await memberSubmits(member);
    // The page shows the submitted post once it has re-rendered: the rejection note goes.
    const rejected = member.getByRole('note', { name: 'Rejected' });
    await rejected.waitFor({ state: 'detached' });
    expect(await rejected.count()).toBe(0);
    await member.context().close();

    const admin = await signedIn(browser, base, ADMIN);
    await admin.goto('/dashboard/posts/approvals');
    await admin.getByRole('button', { name: `Approve “${TITLE}”` }).click();
    await admin.getByRole('status').getByText(`Approved “${TITLE}”`, { exact: false }).waitFor();
    expect(await statusOf()).toBe('published');
    await admin.goto(`/dashboard/posts/${postId}`);
    await admin.getByRole('region', { name: 'Activity' }).getByText('approved it').waitFor();
    await admin.context().close();
  });

  it('the composer offers a member Submit for approval, never Schedule, and leaves a scheduled post alone', async () => {
    const member = await signedIn(browser, base, MEMBER);
    await member.goto('/dashboard/posts/new');
    await member.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
    expect(await member.getByRole('button', { name: 'Schedule', exact: true }).count()).toBe(0);
    // A time already past is refused before anything is saved: beside the field, with
    // everything typed kept on the new post's form, as on a draft's page.
    const early = `${TITLE}, too early`;
    await member.getByLabel('Title').fill(early);
    await member.getByLabel('Content').fill('Written before the refusal.');
    const wish = member.getByLabel('Publish at, once approved');
    await wish.fill('2020-01-01T09:00');
    await member.getByRole('button', { name: 'Submit for approval' }).click();
    await member.getByRole('status').getByText('must be in the future', { exact: false }).waitFor();
    await expect.poll(() => wish.getAttribute('aria-invalid')).toBe('true');
    const why = (await wish.getAttribute('aria-describedby'))?.split(' ') ?? [];
    const beside = await Promise.all(why.map((id) => member.locator(`[id="${id}"]`).textContent()));
    expect(beside.join(' ')).toMatch(/must be in the future/);
    expect(new URL(member.url()).pathname).toBe('/dashboard/posts/new');
    expect(await wish.inputValue()).toBe('2020-01-01T09:00');
    expect(await member.getByLabel('Title').inputValue()).toBe(early);
    expect(await member.getByLabel('Content').inputValue()).toBe('Written before the refusal.');
    const saved = await callApi(
      memberKey,
      'GET',
      `/api/content/posts?q=${encodeURIComponent(early)}`,
    );
    expect(saved.json.data).toEqual([]);

    await member.goto('/dashboard/posts/new');
    const title = `${TITLE}, written`;
    await member.getByLabel('Title').fill(title);
    await member.getByLabel('Content').fill('For the admin to read first.');
    // The time the member wants it out, two days ahead, on the browser's clock (this machine's).
    const at = Math.ceil((Date.now() + 2 * 86_400_000) / 60_000) * 60_000;
    const offset = new Date(at).getTimezoneOffset() * 60_000;
    const typed = new Date(at - offset).toISOString().slice(0, 16);
    await member.getByLabel('Publish at, once approved').fill(typed);
    await member.getByRole('button', { name: 'Submit for approval' }).click();
    await member.getByRole('status').getByText(`Submitted “${title}” for approval.`).waitFor();
    await member.waitForURL(/\/dashboard\/posts\/post_/);
    const id = member.url().split('/').at(-1) ?? '';
    const submitted = (await callApi(memberKey, 'GET', `/api/content/posts/${id}`)).json.data;
    expect([submitted.status, submitted.scheduledAt]).toEqual([
      'pending_approval',
      new Date(at).toISOString(),
    ]);

    // Approved, it is scheduled: the API refuses the member any change but back to draft.
    expect((await callApi(key, 'POST', `/api/content/posts/${id}/approve`)).status).toBe(200);
    await member.reload();
    const status = member.getByRole('region', { name: 'Status' });
    await status.getByText('move it back to draft to change it').waitFor();
    expect(await member.getByLabel(/Publish at/).count()).toBe(0);
    expect(await member.getByRole('button', { name: /Schedule|Reschedule|Save/ }).count()).toBe(0);
    await status.getByRole('button', { name: 'Move back to draft' }).click();
    await member.getByRole('status').getByText(`“${title}” is a draft again.`).waitFor();
    await member.getByRole('button', { name: 'Submit for approval' }).waitFor();
    await member.context().close();
  });

  it('offers a member who must submit neither a calendar move nor a retry, as the API refuses both', async () => {
    // A scheduled post tomorrow at noon (UTC): on that day in any zone the account may have.
    const at = new Date(Date.now() + DAY_MS);
    at.setUTCHours(12, 0, 0, 0);
    const day = at.toISOString().slice(0, 10);
    const title = `${TITLE}, scheduled by an admin`;
    const scheduled = await callApi(key, 'POST', '/api/content/posts', {
      title,
      status: 'scheduled',
      scheduledAt: at.toISOString(),
    });
    expect(scheduled.status).toBe(201);
    const calendar = `/dashboard/posts/calendar?view=week&date=${day}`;
    const move = (page: Page) =>
      page.getByRole('button', { name: `Move “${title}” to another day` });
    const admin = await signedIn(browser, base, ADMIN);
    await admin.goto(calendar);
    await move(admin).waitFor();
    const member = await signedIn(browser, base, MEMBER);
    await member.goto(calendar);
    await member.getByRole('link', { name: title }).waitFor();
    expect(await move(member).count()).toBe(0);
    expect(await member.getByText(/Drag a scheduled post/).count()).toBe(0);
    expect(await member.locator('li.calendar-post[draggable="true"]').count()).toBe(0);
    expect(
      (await callApi(key, 'DELETE', `/api/content/posts/${scheduled.json.data.id}`)).status,
    ).toBe(204);

    // A post the network refused: the admin retries it; the member is told how it goes on.
    const { standIn, channel } = await connectMastodon(key);
    try {
      standIn.faults.inject(mastodonFaults.rejected('Validation failed: Text is not allowed'), {
        method: 'POST',
        path: '/api/v1/statuses',
      });
      const sent = await callApi(key, 'POST', '/api/content/posts', {
        title: `${TITLE}, refused by the network`,
        content: `Refused ${Date.now()}.`,
        status: 'published',
        targets: [{ channelId: channel.id }],
      });
      expect(sent.status).toBe(201);
      const id = sent.json.data.id as string;
      await expect
        .poll(
          async () => (await callApi(key, 'GET', `/api/content/posts/${id}`)).json.data.status,
          {
            timeout: 60_000,
          },
        )
        .toBe('failed');
      const retry = (page: Page) => page.getByRole('button', { name: 'Retry failed channels' });
      await admin.goto(`/dashboard/posts/${id}`);
      await retry(admin).waitFor();
      await member.goto(`/dashboard/posts/${id}`);
      const channels = member.getByRole('region', { name: 'Channels' });
      await channels.getByText('Mastodon said: Validation failed: Text is not allowed').waitFor();
      await channels.getByText('an admin retries it', { exact: false }).waitFor();
      expect(await retry(member).count()).toBe(0);
      // What the member may do instead: move it back to draft, then submit it again.
      await member
        .getByRole('region', { name: 'Status' })
        .getByRole('button', { name: 'Move back to draft' })
        .waitFor();
    } finally {
      await disconnect(key, 'mastodon');
      await standIn.close();
    }
    await admin.context().close();
    await member.context().close();
  });

  it('the queue pages through every pending post, the soonest wished time first', async () => {
    const run = Date.now().toString(36);
    const titles = Array.from({ length: 21 }, (_, i) => `Queued ${run} ${i + 1}`);
    const imported = await callApi(memberKey, 'POST', '/api/content/posts/import', {
      posts: titles.map((title) => ({ title })),
    });
    expect(imported.status).toBe(201);
    const ids = imported.json.data.ids as string[];
    // Wished times a year ahead, an hour apart: after any other pending post's, in title order.
    const first = Math.ceil((Date.now() + 365 * DAY_MS) / 3_600_000) * 3_600_000;
    for (const [i, id] of ids.entries()) {
      const scheduledAt = new Date(first + i * 3_600_000).toISOString();
      const submitted = await callApi(memberKey, 'POST', `/api/content/posts/${id}/submit`, {
        scheduledAt,
      });
      expect(submitted.status).toBe(200);
    }
    const admin = await signedIn(browser, base, ADMIN);
    try {
      await admin.goto('/dashboard/posts/approvals');
      const table = admin.getByRole('table', { name: 'Posts awaiting approval' });
      const seen: string[] = [];
      let pages = 0;
      for (;;) {
        await table.waitFor();
        pages += 1;
        seen.push(...(await table.locator('tbody tr td.title a').allInnerTexts()));
        const next = admin.getByRole('navigation', { name: 'Pagination' }).getByRole('link', {
          name: 'Next →',
        });
        if ((await next.count()) === 0) break;
        const url = admin.url();
        await next.click();
        await admin.waitForURL((to) => to.href !== url);
      }
      expect(pages).toBeGreaterThan(1);
      expect(seen.filter((title) => title.startsWith(`Queued ${run} `))).toEqual(titles);
      // The last page says where it is.
      await admin.getByText(`Page ${pages} of ${pages}`, { exact: false }).waitFor();
    } finally {
      for (const id of ids) await callApi(key, 'DELETE', `/api/content/posts/${id}`);
      await admin.context().close();
    }
  });

  it('an admin’s Approve of a pending post they edited saves the edit with it', async () => {
    const title = `${TITLE}, fixed by the admin`;
    const draft = await callApi(memberKey, 'POST', '/api/content/posts', {
      title,
      content: 'Teh member’s text.',
    });
    expect(draft.status).toBe(201);
    const id = draft.json.data.id as string;
    expect((await callApi(memberKey, 'POST', `/api/content/posts/${id}/submit`, {})).status).toBe(
      200,
    );
    const admin = await signedIn(browser, base, ADMIN);
    await admin.goto(`/dashboard/posts/${id}`);
    const status = admin.getByRole('region', { name: 'Status' });
    await status.getByRole('button', { name: `Approve “${title}”`, exact: true }).waitFor();
    await admin
      .getByRole('region', { name: 'Content' })
      .getByLabel('Content')
      .fill('The member’s text.');
    await status.getByRole('button', { name: `Save and approve “${title}”`, exact: true }).click();
    await admin.getByRole('status').getByText(`Approved “${title}”`, { exact: false }).waitFor();
    const post = (await callApi(key, 'GET', `/api/content/posts/${id}`)).json.data;
    expect([post.status, post.content]).toEqual(['published', 'The member’s text.']);
    await admin.context().close();
  });

  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const admin = await signedIn(browser, base, ADMIN, { width });
    await admin.goto('/dashboard/posts/approvals');
    await admin.getByRole('heading', { name: 'Awaiting approval', level: 1 }).waitFor();
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.goto(`/dashboard/posts/${postId}`);
    await admin.getByRole('region', { name: 'Activity' }).waitFor();
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.context().close();

    // The member's composer, with Submit for approval.
    const member = await signedIn(browser, base, MEMBER, { width });
    await member.goto('/dashboard/posts/new');
    await member.getByRole('button', { name: 'Submit for approval' }).waitFor();
    expect(await seriousViolations(member)).toEqual([]);
    await member.context().close();

    // The reject dialog, open on a post of its own, with its refusal showing.
    const draft = await callApi(memberKey, 'POST', '/api/content/posts', {
      title: `${TITLE} at ${width}`,
    });
    await callApi(memberKey, 'POST', `/api/content/posts/${draft.json.data.id}/submit`, {});
    const again = await signedIn(browser, base, ADMIN, { width });
    await again.goto(`/dashboard/posts/${draft.json.data.id}`);
    await again.getByRole('button', { name: `Reject “${TITLE} at ${width}”` }).click();
    const dialog = again.getByRole('dialog', { name: 'Reject this post?' });
    await dialog.getByRole('button', { name: 'Reject post' }).click();
    await dialog.getByText('A rejection needs a comment.').waitFor();
    expect(await seriousViolations(again)).toEqual([]);
    await again.context().close();
  });
});
