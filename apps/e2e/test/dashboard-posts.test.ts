/**
 * The posts pages as a person uses them, in Chromium against `npm start` (the scheduler runs
 * in-process): an admin writes a post with an image from the library, schedules it on the
 * account's clock and watches it go out, in the list and on the calendar; drags a scheduled
 * post to another day (and moves one with the keyboard, a refused move kept in its dialog); the
 * status controls follow the transition table (docs/posts-and-scheduler.md); a `user` gets the
 * controls the API lets a user use; axe.
 *
 * The account's time zone is Asia/Tokyo (UTC+9, no daylight saving time), and the browser
 * runs there too, so every time shown or typed is converted, and a move by days stays a whole
 * number of days. (dashboard-time-zone.test.ts has the browser in another zone.)
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { description, focused, launchChromium, seriousViolations, signedIn } from './browser';
import { addDays, DAY_MS, dayCell, dayName } from './calendar-words';
import { cliApiKey } from './cli';
import { png } from './png';
import { ADMIN } from './server';
import { callApi, putAccountZone } from './api';

const base = inject('base');
const ZONE = 'Asia/Tokyo';
const ZONE_OFFSET_MS = 9 * 3_600_000;
const MEMBER = { name: 'Paula Poster', email: 'paula-posts@e2e.test', password: 'paula-password' };
const IMAGE = 'e2e-posts-pixel.png';
// Other files share the server and its account: titles of this file's own.
const WRITTEN = 'Posts e2e: launch note';
const DRAGGED = 'Posts e2e: dragged along';
const REFUSED = 'Posts e2e: moved to a time gone by';
const PNG = new Uint8Array(png(1, 1, [160, 90, 40]));
let browser: Browser;
let key = '';
let dragged = { id: '', scheduledAt: '' };

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);
const postOf = async (id: string) =>
  (await api('GET', `/api/content/posts/${id}`)).json.data as {
    status: string;
    scheduledAt: string | null;
    publishedAt: string | null;
    mediaIds: string[];
  };

/** `YYYY-MM-DD` of an instant on Tokyo's calendar. */
const tokyoDay = (ms: number) => new Date(ms + ZONE_OFFSET_MS).toISOString().slice(0, 10);

/** A new browser context in the account’s zone at `width` px, signed in. */
const signedInAt = (user: { email: string; password: string }, width = 1280) =>
  signedIn(browser, base, user, { width, timezoneId: ZONE });

/** The composer's last step, when the post has one (its other buttons edit the post). */
const STEPS = ['Schedule', 'Reschedule', 'Submit for approval'];

/** The names of the status controls on a post's page and the composer's step, sorted. */
async function statusControls(page: Page) {
  const region = page.getByRole('region', { name: 'Status' });
  await region.waitFor();
  const names = (where: Locator) =>
    where
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim() ?? ''));
  const content = await names(page.getByRole('region', { name: 'Content' }));
  return [...(await names(region)), ...content.filter((name) => STEPS.includes(name))].sort();
}

/** After an action, the page redraws with the post's new status: wait for its controls. */
const controlsBecome = (page: Page, names: string[]) =>
  expect.poll(() => statusControls(page)).toEqual(names);
const toast = (page: Page, text: string) => page.getByRole('status').getByText(text).waitFor();

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-posts',
    'read,write,content:read,content:write',
  );
  expect((await api('POST', '/api/users', { ...MEMBER, role: 'user' })).status).toBe(201);
  const upload = new FormData();
  upload.append('file', new Blob([PNG], { type: 'image/png' }), IMAGE);
  const media = await fetch(`${base}/api/content/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: upload,
  });
  expect(media.status).toBe(201);
  // 10:30 in Tokyo, 23 days ahead: a day no other file schedules on.
  const day = tokyoDay(Date.now() + 23 * DAY_MS);
  const post = await api('POST', '/api/content/posts', {
    title: DRAGGED,
    status: 'scheduled',
    scheduledAt: `${day}T10:30:00.000+09:00`,
  });
  expect(post.status).toBe(201);
  dragged = post.json.data;
  await putAccountZone(key, ZONE);
  browser = await launchChromium();
});
afterAll(async () => {
  if (key) await putAccountZone(key, 'UTC');
  await browser?.close();
});

describe('posts, as an admin', () => {
  it('writes a post with an image, schedules it on the account’s clock, and sees it go out', async () => {
    const page = await signedInAt(ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Posts' })
      .click();
    await page.getByRole('heading', { name: 'Posts', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();

    await page.getByLabel('Title').fill(WRITTEN);
    await page.getByLabel('Content').fill('We launch today.');
    await page.getByLabel('Tags').fill(`posts-e2e, ${'x'.repeat(51)}`);
    const media = page.getByRole('group', { name: 'Media' });
    const image = media.getByRole('checkbox', { name: IMAGE });
    await image.check();
    // The thumbnail is the image's own bytes, served to the signed-in browser.
    await expect
      .poll(() =>
        media
          .getByRole('listitem')
          .filter({ hasText: IMAGE })
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(1);
    // A tag over 50 characters: refused beside Tags, and what was typed and checked stays.
    await page.getByRole('button', { name: 'Save as draft' }).click();
    // (In the form, not the toast, which also says it.)
    await page
      .getByRole('main')
      .getByText(/50 characters/)
      .waitFor();
    expect(await page.getByLabel('Tags').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Title').inputValue()).toBe(WRITTEN);
    expect(await page.getByLabel('Content').inputValue()).toBe('We launch today.');
    expect(await image.isChecked()).toBe(true);
    await page.getByLabel('Tags').fill('posts-e2e, launch');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await toast(page, `Created “${WRITTEN}”.`);
    await page.waitForURL(/\/dashboard\/posts\/post_/);
    const id = page.url().split('/').at(-1) ?? '';
    expect((await postOf(id)).mediaIds).toHaveLength(1);

    // A draft may be scheduled or published (docs/posts-and-scheduler.md), nothing else.
    expect(await statusControls(page)).toEqual(['Publish now', 'Schedule']);
    await page.getByText(`In the account’s time zone, ${ZONE}.`, { exact: true }).waitFor();
    // The next whole minute at least 20 s away, typed as Tokyo's wall clock.
    const at = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
    const typed = new Date(at + ZONE_OFFSET_MS).toISOString().slice(0, 16);
    await page.getByLabel('Publish at').fill(typed);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await toast(page, `Scheduled “${WRITTEN}”.`);
    expect((await postOf(id)).scheduledAt).toBe(new Date(at).toISOString());
    await controlsBecome(page, ['Move back to draft', 'Publish now', 'Reschedule']);

    await page.getByRole('link', { name: '← Posts' }).click();
    await page
      .getByRole('navigation', { name: 'Status' })
      .getByRole('link', { name: 'Scheduled' })
      .click();
    await page.waitForURL(/status=scheduled/);
    const row = page.getByRole('row').filter({ hasText: WRITTEN });
    await row.getByText('Scheduled', { exact: true }).waitFor();
    await row.getByText('posts-e2e, launch').waitFor();

    await page.getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    await page
      .getByText(`Times are in the account’s time zone, ${ZONE}.`, { exact: true })
      .waitFor();
    const today = page.getByRole('listitem', {
      name: new RegExp(`^${dayName(tokyoDay(Date.now()))}, today`),
    });
    await today.waitFor();
    await dayCell(page, tokyoDay(at)).getByRole('link', { name: WRITTEN }).waitFor();

    // The scheduler publishes it at its time: it shows under Published, then on the calendar.
    await expect
      .poll(
        async () => {
          await page.goto('/dashboard/posts?status=published');
          return page.getByRole('link', { name: WRITTEN }).count();
        },
        { timeout: 150_000, interval: 3_000 },
      )
      .toBe(1);
    const published = (await postOf(id)).publishedAt ?? '';
    expect(Date.parse(published)).toBeGreaterThanOrEqual(at);
    await page.goto('/dashboard/posts/calendar');
    const item = dayCell(page, tokyoDay(Date.parse(published)))
      .getByRole('listitem')
      .filter({
        hasText: WRITTEN,
      });
    await item.getByText('Published').waitFor();
    // Published posts stay where they went out: nothing to drag or move.
    expect(await item.getAttribute('draggable')).toBe('false');
    expect(await item.getByRole('button').count()).toBe(0);
    await page.context().close();
  }, 240_000);

  it('drags a scheduled post to another day, and moves it with the keyboard too', async () => {
    const page = await signedInAt(ADMIN);
    const from = tokyoDay(Date.parse(dragged.scheduledAt));
    await page.goto(`/dashboard/posts/calendar?view=week&date=${from}`);
    await page.getByRole('heading', { name: /^Week of / }).waitFor();
    // Two days along, staying in the week shown (weeks start on Monday).
    const weekday = (new Date(`${from}T00:00:00Z`).getUTCDay() + 6) % 7;
    const shift = weekday <= 4 ? 2 : -2;
    const to = addDays(from, shift);
    const chip = dayCell(page, from).getByRole('listitem').filter({ hasText: DRAGGED });
    await chip.dragTo(dayCell(page, to));
    await toast(page, `Moved “${DRAGGED}” to ${dayName(to)}.`);
    await dayCell(page, to).getByRole('link', { name: DRAGGED }).waitFor();
    const moved = (await postOf(dragged.id)).scheduledAt ?? '';
    expect(Date.parse(moved) - Date.parse(dragged.scheduledAt)).toBe(shift * DAY_MS);

    // Without a mouse: the post's Move dialog takes a day.
    await page.getByRole('button', { name: `Move “${DRAGGED}” to another day` }).click();
    const dialog = page.getByRole('dialog', { name: `Move “${DRAGGED}”` });
    const later = addDays(to, 7);
    await dialog.getByLabel('New day').fill(later);
    await dialog.getByRole('button', { name: 'Move' }).click();
    await toast(page, `Moved “${DRAGGED}” to ${dayName(later)}.`);
    // The post left the week with its Move button: focus goes to the week's title, not to
    // the body (the top of the page).
    await dayCell(page, to).getByRole('link', { name: DRAGGED }).waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toMatch(/^h2: Week of /);
    const again = (await postOf(dragged.id)).scheduledAt ?? '';
    expect(Date.parse(again) - Date.parse(moved)).toBe(7 * DAY_MS);
    // The next week shows it.
    await page.getByRole('link', { name: 'Next week →' }).click();
    await dayCell(page, later).getByRole('link', { name: DRAGGED }).waitFor();
    await page.context().close();
  });

  it('keeps the day typed in the Move dialog when the move is refused, the refusal beside it', async () => {
    // Midnight in Tokyo, 27 days ahead: on today, that time has passed.
    const day = tokyoDay(Date.now() + 27 * DAY_MS);
    const at = `${day}T00:00:00.000+09:00`;
    const created = await api('POST', '/api/content/posts', {
      title: REFUSED,
      status: 'scheduled',
      scheduledAt: at,
    });
    expect(created.status).toBe(201);
    const id: string = created.json.data.id;
    const page = await signedInAt(ADMIN);
    await page.goto(`/dashboard/posts/calendar?view=week&date=${day}`);
    await page.getByRole('button', { name: `Move “${REFUSED}” to another day` }).click();
    const dialog = page.getByRole('dialog', { name: `Move “${REFUSED}”` });
    const newDay = dialog.getByLabel('New day');
    const today = tokyoDay(Date.now());
    await newDay.fill(today);
    await dialog.getByRole('button', { name: 'Move' }).click();
    const past = dialog.getByText('The time must be in the future.', { exact: true });
    await past.waitFor();
    expect(await newDay.getAttribute('aria-invalid')).toBe('true');
    expect(await description(newDay)).toBe('The time must be in the future.');
    expect(await newDay.inputValue()).toBe(today);
    expect(Date.parse((await postOf(id)).scheduledAt ?? '')).toBe(Date.parse(at));
    // Another day answers the refusal: its error goes, and the post moves there.
    const later = addDays(day, 1);
    await newDay.fill(later);
    await past.waitFor({ state: 'detached' });
    expect(await newDay.getAttribute('aria-invalid')).toBeNull();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await toast(page, `Moved “${REFUSED}” to ${dayName(later)}.`);
    await dialog.waitFor({ state: 'detached' });
    expect(Date.parse((await postOf(id)).scheduledAt ?? '')).toBe(Date.parse(at) + DAY_MS);
    await page.context().close();
  });

  it('asks for exactly the days it shows, in the account’s zone: a post on each edge is there', async () => {
    // A week nine weeks ahead, Monday to Sunday in Tokyo.
    const later = tokyoDay(Date.now() + 63 * DAY_MS);
    const monday = addDays(later, -((new Date(`${later}T00:00:00Z`).getUTCDay() + 6) % 7));
    const sunday = addDays(monday, 6);
    const edges = [
      ['Posts e2e: the week’s first instant', `${monday}T00:00:00.000+09:00`, monday],
      ['Posts e2e: the week’s last instant', `${sunday}T23:59:59.999+09:00`, sunday],
    ] as const;
    for (const [title, scheduledAt] of edges) {
      const created = await api('POST', '/api/content/posts', {
        title,
        status: 'scheduled',
        scheduledAt,
      });
      expect(created.status).toBe(201);
    }
    const page = await signedInAt(ADMIN);
    for (const view of ['week', 'month']) {
      await page.goto(`/dashboard/posts/calendar?view=${view}&date=${monday}`);
      for (const [title, , day] of edges) {
        await dayCell(page, day).getByRole('link', { name: title }).waitFor();
      }
    }
    await page.context().close();
  });

  it('offers on each post exactly the changes of status the transition table allows', async () => {
    const create = async (title: string, body: Record<string, unknown> = {}) =>
      (await api('POST', '/api/content/posts', { title, ...body })).json.data.id as string;
    const published = await create('Posts e2e: published', { status: 'published' });
    const archived = await create('Posts e2e: archived', { status: 'published' });
    expect(
      (await api('PUT', `/api/content/posts/${archived}`, { status: 'archived' })).status,
    ).toBe(200);
    const cases = [
      [await create('Posts e2e: draft'), ['Publish now', 'Schedule']],
      [
        await create('Posts e2e: scheduled', {
          status: 'scheduled',
          scheduledAt: new Date(Date.now() + 40 * DAY_MS).toISOString(),
        }),
        ['Move back to draft', 'Publish now', 'Reschedule'],
      ],
      [published, ['Archive']],
      [archived, ['Move back to draft']],
    ] as const;
    const page = await signedInAt(ADMIN);
    // A published post is shown, not edited: the networks keep what was sent.
    await page.goto(`/dashboard/posts/${published}`);
    await page
      .getByRole('region', { name: 'Status' })
      .getByText('The networks show the post as it was sent, so it is no longer edited here', {
        exact: false,
      })
      .waitFor();
    await page.getByRole('region', { name: 'Content' }).getByText('Posts e2e: published').waitFor();
    expect(await page.getByRole('textbox', { name: 'Title' }).count()).toBe(0);
    for (const [id, controls] of cases) {
      await page.goto(`/dashboard/posts/${id}`);
      expect(await statusControls(page)).toEqual([...controls]);
    }
    // And each does what it says: the archived post is a draft again.
    await page.getByRole('button', { name: 'Move back to draft' }).click();
    await toast(page, '“Posts e2e: archived” is a draft again.');
    expect((await postOf(archived)).status).toBe('draft');
    await controlsBecome(page, ['Publish now', 'Schedule']);
    await page.context().close();
  });

  it('lists the scheduled tab as a queue: what goes out next first', async () => {
    const scheduled = async (title: string, days: number) =>
      expect(
        (
          await api('POST', '/api/content/posts', {
            title,
            status: 'scheduled',
            scheduledAt: new Date(Date.now() + days * DAY_MS).toISOString(),
          })
        ).status,
      ).toBe(201);
    // Written in the other order than they go out.
    await scheduled('Queue e2e: goes out last', 32);
    await scheduled('Queue e2e: goes out first', 30);
    await scheduled('Queue e2e: goes out second', 31);
    const page = await signedInAt(ADMIN);
    await page.goto('/dashboard/posts?status=scheduled&q=Queue+e2e');
    const titles = page.getByRole('row').getByRole('link', { name: /^Queue e2e: / });
    await titles.first().waitFor();
    expect(await titles.allTextContents()).toEqual([
      'Queue e2e: goes out first',
      'Queue e2e: goes out second',
      'Queue e2e: goes out last',
    ]);
    await page.context().close();
  });
});

describe('posts, as a user', () => {
  it('gets the controls the API lets a user use (posts have no admin tier), and they work', async () => {
    const id = (await api('POST', '/api/content/posts', { title: 'Posts e2e: for the team' })).json
      .data.id as string;
    const page = await signedInAt(MEMBER);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Posts' })
      .click();
    await page.getByRole('link', { name: 'New post' }).waitFor();
    await page.getByRole('link', { name: 'Posts e2e: for the team' }).click();
    expect(await statusControls(page)).toEqual(['Publish now', 'Schedule']);
    await page.getByRole('button', { name: 'Delete the post “Posts e2e: for the team”' }).waitFor();
    // Sending cannot be undone: it asks first, saying where the post goes.
    await page.getByRole('button', { name: 'Publish now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish this post now?' });
    await confirm.getByText('“Posts e2e: for the team” has no channel').waitFor();
    expect((await postOf(id)).status).toBe('draft');
    await confirm.getByRole('button', { name: 'Publish now' }).click();
    await toast(page, 'Published “Posts e2e: for the team”.');
    expect((await postOf(id)).status).toBe('published');
    await controlsBecome(page, ['Archive']);
    // Admin-only pages stay out of a user's navigation.
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('accessibility', () => {
  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedInAt(ADMIN, width);
    await page.goto('/dashboard/posts');
    await page.getByRole('heading', { name: 'Posts', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/dashboard/posts/new');
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/dashboard/posts/${dragged.id}`);
    await page.getByRole('heading', { name: 'Post', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    for (const view of ['month', 'week']) {
      const day = tokyoDay(Date.parse((await postOf(dragged.id)).scheduledAt ?? ''));
      await page.goto(`/dashboard/posts/calendar?view=${view}&date=${day}`);
      await page.getByRole('link', { name: DRAGGED }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.context().close();
  });
});
