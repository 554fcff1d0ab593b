/**
 * Posting slots and recurring posts in the dashboard, in Chromium against `npm start`: an
 * admin edits a channel's weekly slots (a slot given twice is refused beside its row, what was
 * typed kept; focus stays beside a removed row), the composer's Next free slot names the first
 * free one and takes it (and, on a channel without slots, links to its slots page), a `user`
 * reads them without a form, the calendar shows a weekly series' coming occurrences and the
 * free slots, each marked in words, a series' page its rule and next occurrences (an archived
 * one, that none is to come), and a copy's page a link to its series; axe at 1280 and 375 px.
 */
import type { MastodonStandIn } from '@chorus/stand-ins';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { focused, launchChromium, seriousViolations, signedIn } from './browser';
import { DAY_MS, dayCell, timeInWords as inWords } from './calendar-words';
import { cliApiKey } from './cli';
import { connectMastodon, disconnect } from './publishing-fixtures';
import { ADMIN } from './server';

const base = inject('base');
const MEMBER = { name: 'Sol Slots', email: 'sol-slots@e2e.test', password: 'sol-password' };
const SERIES = 'Recurring e2e: tip of the week';
let browser: Browser;
let key = '';
let standIn: MastodonStandIn | undefined;
let channel = { id: '', name: '' };
let seriesId = '';

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);

/** A new browser context in UTC at `width` px, signed in. */
const signedInAt = (user: { email: string; password: string }, width = 1280) =>
  signedIn(browser, base, user, { width, timezoneId: 'UTC' });

const slotsPath = () => `/dashboard/integrations/channels/${channel.id}`;
const slotRow = (page: Page, n: number) => page.getByRole('group', { name: `Slot ${n}` });

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-recurring',
    'read,write,content:read,content:write',
  );
  const created = await api('POST', '/api/users', { ...MEMBER, role: 'user' });
  expect([201, 400]).toContain(created.status);
  ({ standIn, channel } = await connectMastodon(key));
  browser = await launchChromium();
});
afterAll(async () => {
  // Other files share the account: the network connected here goes again, its slots with it.
  if (key && channel.id) await disconnect(key, 'mastodon');
  await browser?.close();
  await standIn?.close();
});

describe('posting slots and recurring posts', () => {
  it('an admin edits a channel’s weekly slots; a slot given twice is refused beside its row', async () => {
    const page = await signedInAt(ADMIN);
    await page.goto('/dashboard/integrations');
    await page
      .getByRole('link', { name: `Posting slots of ${channel.name}` })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Posting slots', level: 1 }).waitFor();
    await page.getByText('No slots yet.').waitFor();
    for (const n of [1, 2]) {
      await page.getByRole('button', { name: 'Add a slot' }).click();
      await slotRow(page, n).getByLabel('Day').selectOption('wednesday');
      await slotRow(page, n).getByLabel('Time').fill('17:00');
    }
    await page.getByRole('button', { name: 'Save slots' }).click();
    await slotRow(page, 2).getByText('Slot 1 is already this day and time.').waitFor();
    expect(await slotRow(page, 2).getByLabel('Time').getAttribute('aria-invalid')).toBe('true');
    expect(await slotRow(page, 1).getByLabel('Time').getAttribute('aria-invalid')).toBeNull();
    // What was typed stays: only the second row changes.
    expect(await slotRow(page, 1).getByLabel('Time').inputValue()).toBe('17:00');
    await slotRow(page, 2).getByLabel('Day').selectOption('monday');
    await slotRow(page, 2).getByLabel('Time').fill('09:30');
    await page.getByRole('button', { name: 'Save slots' }).click();
    await page.getByRole('status').getByText('Posting slots saved.').waitFor();
    const { json } = await api('GET', `/api/content/channels/${channel.id}/slots`);
    expect(json.data.slots).toEqual([
      { day: 'monday', time: '09:30' },
      { day: 'wednesday', time: '17:00' },
    ]);
    await page.reload();
    expect(await slotRow(page, 1).getByLabel('Day').inputValue()).toBe('monday');
    await page.getByRole('button', { name: 'Remove slot 2' }).waitFor();
    await page.context().close();
  });

  it('a removed slot leaves focus on the next slot’s Remove button, or on Add a slot', async () => {
    const page = await signedInAt(ADMIN);
    await page.goto(slotsPath());
    await page.getByRole('heading', { name: 'Posting slots', level: 1 }).waitFor();
    const rows = page.getByRole('group', { name: /^Slot \d+$/ });
    const saved = await rows.count();
    for (const time of ['06:10', '06:20']) {
      await page.getByRole('button', { name: 'Add a slot' }).click();
      await slotRow(page, await rows.count())
        .getByLabel('Time')
        .fill(time);
    }
    const last = saved + 2;
    // From the keyboard: the second-to-last row goes, the last takes its place and its number.
    await page.getByRole('button', { name: `Remove slot ${last - 1}` }).focus();
    await page.keyboard.press('Enter');
    expect(await rows.count()).toBe(last - 1);
    expect(await focused(page)).toBe(`button: Remove slot ${last - 1}`);
    expect(
      await slotRow(page, last - 1)
        .getByLabel('Time')
        .inputValue(),
    ).toBe('06:20');
    // The last row goes: nothing follows it but Add a slot.
    await page.keyboard.press('Enter');
    expect(await rows.count()).toBe(saved);
    expect(await focused(page)).toBe('button: Add a slot');
    await page.context().close();
  });

  it('on a channel without slots, Next free slot says so in the dashboard’s words, linking to its slots page', async () => {
    const kept = (await api('GET', `/api/content/channels/${channel.id}/slots`)).json.data.slots;
    const emptied = await api('PUT', `/api/content/channels/${channel.id}/slots`, { slots: [] });
    expect(emptied.status).toBe(200);
    try {
      const page = await signedInAt(ADMIN);
      await page.goto('/dashboard/posts/new');
      await page.getByLabel('Title').fill(`Without slots ${Date.now()}`);
      await page.getByLabel('Content').fill('Waiting for a posting slot.');
      await page
        .getByRole('group', { name: 'Channels' })
        .getByRole('checkbox', { name: new RegExp(channel.name) })
        .check();
      // Before the click: the line under the button, with a link to the channel's slots.
      const line = page.getByText('Next free slot: none. This channel has no posting slots');
      await line.waitFor();
      expect(await line.textContent()).not.toContain('/api/');
      const link = line.getByRole('link', { name: 'its Posting slots page' });
      expect(await link.getAttribute('href')).toBe(slotsPath());
      // After it: the toast names the button, not the request's field, nor the API's path.
      const next = page.getByRole('button', { name: 'Next free slot' });
      await expect.poll(() => next.isDisabled(), { timeout: 15_000 }).toBe(false);
      await next.click();
      const toast = page.getByRole('status').getByText(/has no posting slots/);
      await toast.waitFor();
      expect(await toast.textContent()).toBe(
        'Next free slot: This channel has no posting slots: set some on its Posting slots page (under Integrations).',
      );
      expect(page.url()).toMatch(/\/dashboard\/posts\/new$/);
      await page.context().close();
    } finally {
      await api('PUT', `/api/content/channels/${channel.id}/slots`, { slots: kept });
    }
  });

  it('the composer puts a post in its channel’s next free slot, and says when', async () => {
    const slots = await api('GET', `/api/content/channels/${channel.id}/slots`);
    const free = (slots.json.data.upcoming as { at: string; free: boolean }[]).find((s) => s.free);
    if (!free) throw new Error('the channel has no free slot');
    const title = `Queued e2e ${Date.now()}`;
    const page = await signedInAt(ADMIN);
    await page.goto('/dashboard/posts/new');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Content').fill('Into the next free slot.');
    const next = page.getByRole('button', { name: 'Next free slot' });
    // Without a channel there is no slot to take: said beside the time, nothing created.
    await expect.poll(() => next.isDisabled(), { timeout: 15_000 }).toBe(false);
    await next.click();
    await page
      .getByText(/Posting slots are per channel/)
      .first()
      .waitFor();
    expect(await page.getByLabel('Publish at').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toMatch(/\/dashboard\/posts\/new$/);
    await page
      .getByRole('group', { name: 'Channels' })
      .getByRole('checkbox', { name: new RegExp(channel.name) })
      .check();
    // Before the click, beside the button: the slot it would take.
    const nextSlotLine = (at: string) =>
      page.getByText(`Next free slot: ${inWords(at)}, the earliest`).waitFor();
    await nextSlotLine(free.at);
    // A series takes a slot free at each of its occurrences: with a post a week after that
    // slot, a weekly one takes a later slot, and the line follows the Repeats choice.
    const blocker = await api('POST', '/api/content/posts', {
      title: `Held a week on ${Date.now()}`,
      content: 'A week after the next free slot.',
      status: 'scheduled',
      scheduledAt: new Date(Date.parse(free.at) + 7 * DAY_MS).toISOString(),
      targets: [{ channelId: channel.id }],
    });
    expect(blocker.status).toBe(201);
    const weekly = await api(
      'GET',
      `/api/content/channels/next-slot?channelIds=${channel.id}&recurrence=FREQ%3DWEEKLY`,
    );
    const weeklyAt = weekly.json.data.at as string;
    expect(Date.parse(weeklyAt)).toBeGreaterThan(Date.parse(free.at));
    const repeats = page.getByLabel('Repeats');
    await repeats.selectOption({ label: 'Every week' });
    await nextSlotLine(weeklyAt);
    await repeats.selectOption({ label: 'Does not repeat' });
    await nextSlotLine(free.at);
    await expect.poll(() => next.isDisabled(), { timeout: 15_000 }).toBe(false);
    await next.click();
    await page.getByRole('status').getByText(`Scheduled “${title}” for`).waitFor();
    await page.waitForURL(/\/dashboard\/posts\/post_/);
    const id = page.url().split('/').at(-1) ?? '';
    const { json } = await api('GET', `/api/content/posts/${id}`);
    expect(json.data).toMatchObject({ status: 'scheduled', scheduledAt: free.at });
    expect((await api('DELETE', `/api/content/posts/${blocker.json.data.id}`)).status).toBe(204);
    await page.context().close();
  });

  it('a user reads the slots, with no form', async () => {
    const page = await signedInAt(MEMBER);
    await page.goto(slotsPath());
    await page.getByRole('heading', { name: 'Posting slots', level: 1 }).waitFor();
    await page.getByText('Wednesday 17:00').waitFor();
    await page.getByText(/Only admins can change them\./).waitFor();
    expect(await page.getByRole('button', { name: 'Save slots' }).count()).toBe(0);
    await page.context().close();
  });

  it('the calendar shows a weekly series’ coming occurrences and the free slots, in words', async () => {
    const start = new Date(Date.now() + DAY_MS);
    start.setUTCHours(12, 0, 0, 0);
    const created = await api('POST', '/api/content/posts', {
      title: SERIES,
      content: 'Every week',
      status: 'scheduled',
      scheduledAt: start.toISOString(),
      recurrence: 'FREQ=WEEKLY',
      targets: [{ channelId: channel.id }],
    });
    expect(created.status).toBe(201);
    const occurrences = created.json.data.nextOccurrences as string[];
    expect(occurrences).toHaveLength(5);
    const page = await signedInAt(ADMIN);
    for (const at of occurrences.slice(0, 3)) {
      const day = at.slice(0, 10);
      await page.goto(`/dashboard/posts/calendar?view=week&date=${day}`);
      const item = dayCell(page, day).getByRole('listitem').filter({ hasText: SERIES });
      await item.getByRole('link', { name: SERIES }).waitFor();
      await item.getByText('Repeats').waitFor();
      await item.getByText('12:00').waitFor();
    }
    const slots = await api('GET', `/api/content/channels/${channel.id}/slots`);
    const free = (slots.json.data.upcoming as { at: string; free: boolean }[]).find((s) => s.free);
    if (!free) throw new Error('the channel has no free slot');
    const day = free.at.slice(0, 10);
    await page.goto(`/dashboard/posts/calendar?view=week&date=${day}`);
    const open = dayCell(page, day).getByRole('listitem').filter({ hasText: 'Open slot' });
    await open.getByText(free.at.slice(11, 16)).first().waitFor();
    await open.getByText(channel.name).first().waitFor();
    // The series' own page: its rule in the form, Archive instead of Publish now.
    seriesId = created.json.data.id as string;
    await page.goto(`/dashboard/posts/${seriesId}`);
    expect(await page.getByLabel('Repeats').inputValue()).toBe('FREQ=WEEKLY');
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByRole('button', { name: 'Archive' }).waitFor();
    expect(await status.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
    // And how it repeats, with the occurrences the scheduler publishes next, in words.
    await status.getByText('Repeats: Every week').waitFor();
    const next = status.getByRole('list', { name: 'Next:' });
    await next.getByText(inWords(occurrences[0] ?? '')).waitFor();
    const times = await next
      .locator('time')
      .evaluateAll((elements) => elements.map((time) => time.getAttribute('datetime')));
    expect(times).toEqual(occurrences);
    await page.context().close();
  });

  it('an archived series’ page says no occurrence is to come, instead of an empty list', async () => {
    const created = await api('POST', '/api/content/posts', {
      title: 'Recurring e2e: archived series',
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 2 * DAY_MS).toISOString(),
      recurrence: 'FREQ=DAILY',
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    expect((await api('PUT', `/api/content/posts/${id}`, { status: 'archived' })).status).toBe(200);
    const page = await signedInAt(ADMIN);
    await page.goto(`/dashboard/posts/${id}`);
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByText('Repeats: Every day').waitFor();
    await status.getByText('Archived: no more copies go out.').waitFor();
    expect(await status.getByRole('list', { name: 'Next:' }).count()).toBe(0);
    await page.context().close();
  });

  it('a copy’s page says it is one occurrence and links to its series', async () => {
    const title = `Recurring e2e: copied ${Date.now()}`;
    const created = await api('POST', '/api/content/posts', {
      title,
      content: 'Once a day',
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 2_000).toISOString(),
      recurrence: 'FREQ=DAILY',
    });
    expect(created.status).toBe(201);
    const series = created.json.data.id as string;
    // The scheduler copies the first occurrence when it comes (a sweep every half second).
    let copy: string | undefined;
    for (let tries = 0; !copy && tries < 60; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const found = await api('GET', `/api/content/posts?q=${encodeURIComponent(title)}`);
      copy = (found.json.data as { id: string; recurrenceOf: string | null }[]).find(
        (post) => post.recurrenceOf === series,
      )?.id;
    }
    if (!copy) throw new Error('the series made no copy within 30 s');
    const page = await signedInAt(ADMIN);
    await page.goto(`/dashboard/posts/${copy}`);
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByText('One occurrence of a recurring post').waitFor();
    await status.getByRole('link', { name: 'open the series' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/posts/${series}`);
    await page.getByRole('region', { name: 'Status' }).getByText('Repeats: Every day').waitFor();
    expect(await page.getByText('One occurrence of a recurring post').count()).toBe(0);
    await page.context().close();
  });

  it('a monthly rule from the 29th to the 31st says the months without that day are skipped', async () => {
    const page = await signedInAt(ADMIN);
    await page.goto('/dashboard/posts/new');
    const repeats = page.getByLabel('Repeats');
    const note = page.getByText(/months without a \d+(st|th) are skipped/);
    // A 31st next year (January has one), on the account's clock.
    const year = new Date().getUTCFullYear() + 1;
    await page.getByLabel('Publish at').fill(`${year}-01-31T09:00`);
    await repeats.selectOption({ label: 'Every month' });
    expect(await note.textContent()).toBe('Starts on the 31st: months without a 31st are skipped.');
    // Tied to the rule for screen readers.
    const described = (await repeats.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(await note.textContent());
    // Another day, or another rule: nothing to say.
    await page.getByLabel('Publish at').fill(`${year}-01-15T09:00`);
    await note.waitFor({ state: 'detached' });
    await page.getByLabel('Publish at').fill(`${year}-01-30T09:00`);
    await page.getByText('Starts on the 30th: months without a 30th are skipped.').waitFor();
    await repeats.selectOption({ label: 'Every week' });
    await note.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    for (const user of [ADMIN, MEMBER]) {
      const page = await signedInAt(user, width);
      await page.goto(slotsPath());
      await page.getByRole('heading', { name: 'Posting slots', level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const day = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
      await page.goto(`/dashboard/posts/calendar?view=week&date=${day}`);
      await page.getByText(SERIES).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/dashboard/posts/${seriesId}`);
      await page.getByText('Next:').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});
