/**
 * The analytics pages as a person uses them, in Chromium against `npm start`: events recorded
 * through the REST API with an API key read back as totals, engagement rate, a chart with its
 * table, platforms and top posts; the presets and a custom range; a post's own figures; axe.
 *
 * Other test files record events for today on the same server, so exact account totals are
 * read on a day only this file uses, and today's figures through this file's own posts.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';
import { callApi } from './api';

const base = inject('base');
const DAY = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
/** Noon UTC of a past day: inside that day whatever the time zone of the machine. */
const noon = (daysAgo: number) => `${day(daysAgo)}T12:00:00.000Z`;
const QUIET_DAY = 150;
let browser: Browser;
let key = '';
const posts = { launch: '', note: '' };

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-analytics',
    'content:write,analytics:write,analytics:read',
  );
  posts.launch = (await api('POST', '/api/content/posts', { title: 'Autumn launch' })).json.data.id;
  posts.note = (await api('POST', '/api/content/posts', { title: 'Quiet note' })).json.data.id;
  const recorded = await api('POST', '/api/analytics/events', {
    events: [
      { type: 'impression', contentId: posts.launch, integrationId: 'linkedin', count: 400 },
      { type: 'like', contentId: posts.launch, integrationId: 'linkedin', count: 20 },
      { type: 'click', contentId: posts.launch, count: 10 },
      {
        type: 'impression',
        contentId: posts.launch,
        integrationId: 'linkedin',
        count: 1000,
        occurredAt: noon(20),
      },
      {
        type: 'like',
        contentId: posts.launch,
        integrationId: 'linkedin',
        count: 50,
        occurredAt: noon(20),
      },
      { type: 'impression', contentId: posts.note, integrationId: 'facebook', count: 100 },
      { type: 'share', contentId: posts.note, integrationId: 'facebook', count: 2 },
      { type: 'impression', integrationId: 'facebook', count: 300, occurredAt: noon(QUIET_DAY) },
      { type: 'comment', integrationId: 'facebook', count: 3, occurredAt: noon(QUIET_DAY) },
    ],
  });
  expect(recorded.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The figure a totals card shows, e.g. total(page, 'Impressions') → "1,400". */
const total = (page: Page, label: string) =>
  page
    .getByRole('list', { name: 'Totals' })
    .getByRole('listitem')
    // Anchored: the engagement rate's card mentions likes, comments and clicks too.
    .filter({ hasText: new RegExp(`^${label}`) })
    .getByRole('strong')
    .textContent();
const topPost = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Top posts' }).getByRole('row').filter({ hasText: title });

describe('analytics', () => {
  it('reads totals and engagement rate of a custom range, with the chart and its table', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Analytics' })
      .click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    // The default is the last 30 days.
    expect(
      await page.getByRole('link', { name: 'Last 30 days' }).getAttribute('aria-current'),
    ).toBe('true');

    await page.getByLabel('From', { exact: true }).fill(day(QUIET_DAY));
    await page.getByLabel('To', { exact: true }).fill(day(QUIET_DAY));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((url) => url.searchParams.get('from') === day(QUIET_DAY));
    expect(await total(page, 'Impressions')).toBe('300');
    expect(await total(page, 'Comments')).toBe('3');
    expect(await total(page, 'Likes')).toBe('0');
    expect(await total(page, 'Engagement rate')).toBe('1%');
    await page
      .getByRole('img', { name: /Daily impressions, views and engagements .* 300 impressions/ })
      .waitFor();
    await page.getByText('The daily figures as a table').click();
    const row = page.getByRole('row', { name: new RegExp(`^${day(QUIET_DAY)}`) });
    await row.getByRole('cell', { name: '300' }).waitFor();
    await page
      .getByRole('region', { name: 'By platform' })
      .getByRole('row', { name: /^Facebook/ })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('switches presets, ranks the top posts and opens a post’s own figures', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/analytics');
    const launch = topPost(page, 'Autumn launch');
    // 30 days: both days of the launch post (1,400 impressions, 80 engagements).
    await launch.getByRole('cell', { name: '1,400' }).waitFor();
    await launch.getByRole('cell', { name: '5.71%' }).waitFor();
    await topPost(page, 'Quiet note').getByRole('cell', { name: '2%' }).waitFor();

    await page.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL((url) => url.searchParams.get('days') === '7');
    expect(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current')).toBe(
      'true',
    );
    // 7 days: only today's 400 impressions and 30 engagements.
    await launch.getByRole('cell', { name: '400', exact: true }).waitFor();
    await launch.getByRole('cell', { name: '7.5%' }).waitFor();

    await page.getByRole('link', { name: 'Last 90 days' }).click();
    await page.waitForURL((url) => url.searchParams.get('days') === '90');
    await launch.getByRole('cell', { name: '1,400' }).waitFor();

    await launch.getByRole('link', { name: 'Autumn launch' }).click();
    await page.getByRole('heading', { name: 'Autumn launch', level: 1 }).waitFor();
    // The range chosen on the account's page carries over.
    expect(new URL(page.url()).searchParams.get('from')).toBe(day(89));
    expect(await total(page, 'Impressions')).toBe('1,400');
    expect(await total(page, 'Likes')).toBe('70');
    expect(await total(page, 'Engagement rate')).toBe('5.71%');
    await page
      .getByRole('region', { name: 'By platform' })
      .getByRole('row', { name: /^LinkedIn 1,400/ })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses a range the API refuses, saying why, and keeps what was typed', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/analytics');
    await page.getByLabel('From', { exact: true }).fill(day(400));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').getByText(/366/).waitFor();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(day(400));
    expect(await page.getByLabel('From', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await page.getByRole('list', { name: 'Totals' }).count()).toBe(0);

    // Reversed, the refusal names each field once, as the form labels them.
    await page.getByLabel('From', { exact: true }).fill(day(0));
    await page.getByLabel('To', { exact: true }).fill(day(3));
    await page.getByRole('button', { name: 'Apply' }).click();
    const reversed = page.getByRole('alert').getByText(/must not be after/);
    expect(await reversed.textContent()).toBe('From must not be after To.');
    await page.context().close();
  });
});

describe('accessibility', () => {
  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedIn(browser, base, ADMIN, { width });
    for (const path of ['/dashboard/analytics', `/dashboard/analytics/posts/${posts.launch}`]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('img', { name: /Daily impressions/ }).waitFor();
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.context().close();
  });
});
