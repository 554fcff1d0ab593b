/**
 * The dashboard's home in Chromium against `npm start`: the admin's summary (users, platforms,
 * posts by status, the next scheduled posts in order, last 7 days of engagement, a disabled
 * webhook), the same page for a `user` without the admin-only figures, the navigation on one
 * row from 1280 px down (beside the brand, then under it, scrolling sideways) and in a menu at
 * 375 px, and axe.
 *
 * Other test files share the server, so figures are read relative to this file's own data.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { timeInWords as inWords } from './calendar-words';
import { cliApiKey } from './cli';
import { ADMIN } from './server';
import { callApi } from './api';

const base = inject('base');
const MEMBER = { name: 'Hana Home', email: 'hana@e2e.test', password: 'hana-password' };
const HOOK_URL = 'http://127.0.0.1:9/home-hook';
let browser: Browser;
let key = '';

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
let firstAt = '';

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-home',
    'read,write,content:read,content:write,analytics:write',
  );
  expect((await api('POST', '/api/users', { ...MEMBER, role: 'user' })).status).toBe(201);
  // Created first, sent last: the home page orders by when they go out. Within hours, so that
  // the other files' scheduled posts (days away) never push these out of the next five.
  for (const [title, hours] of [
    ['Home: goes out second', 2],
    ['Home: goes out first', 1],
  ] as const) {
    const post = await api('POST', '/api/content/posts', {
      title,
      status: 'scheduled',
      scheduledAt: inHours(hours),
    });
    expect(post.status).toBe(201);
    firstAt = post.json.data.scheduledAt as string;
  }
  const hook = await api('POST', '/api/webhooks', { url: HOOK_URL, events: ['*'] });
  expect(hook.status).toBe(201);
  const off = await api('PUT', `/api/webhooks/${hook.json.data.id}`, { active: false });
  expect(off.status).toBe(200);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const card = (page: Page, label: string) =>
  page
    .getByRole('list', { name: 'Summary' })
    .getByRole('listitem')
    .filter({ hasText: new RegExp(`^${label}`) });

describe('home', () => {
  it('sums the account up for an admin', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // Two users at least: the admin and the member made above.
    expect(Number(await card(page, 'Users').getByRole('strong').textContent())).toBeGreaterThan(1);
    expect(await card(page, 'Posts').textContent()).toMatch(/\d+ scheduled/);
    expect(await card(page, 'Engagement, last 7 days').getByRole('strong').textContent()).toMatch(
      /^\d+(\.\d+)?%$/,
    );
    expect(await card(page, 'Webhooks').textContent()).toMatch(/[1-9]\d* disabled/);

    const next = page.getByRole('list', { name: 'Next scheduled posts' }).getByRole('listitem');
    const titles = (await next.allTextContents()).filter((t) => t.startsWith('Home:'));
    expect(titles.map((t) => t.split(' · ')[0])).toEqual([
      'Home: goes out first',
      'Home: goes out second',
    ]);
    // On the account's clock (UTC here; dashboard-time-zone.test.ts reads it in Tokyo's), as
    // the posts pages write times, each title a link to its post.
    expect(titles[0]).toBe(`Home: goes out first · ${inWords(firstAt)}`);
    await page.getByText('Times are in the account’s time zone, UTC.', { exact: true }).waitFor();
    await next.getByRole('link', { name: 'Home: goes out first' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1 }).waitFor();
    await page.getByText('Home: goes out first').first().waitFor();
    await page.goBack();

    const disabled = page.getByRole('region', { name: 'Disabled webhooks' });
    await disabled.getByRole('link', { name: HOOK_URL }).waitFor();
    await disabled.getByText('by an admin').waitFor();
    await card(page, 'Engagement, last 7 days').click();
    await page.waitForURL((url) => url.searchParams.get('days') === '7');
    await page.context().close();
  });

  it('shows a user the same page without the admin-only figures', async () => {
    const page = await signedIn(browser, base, MEMBER);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await card(page, 'Posts').waitFor();
    await card(page, 'Webhooks').waitFor();
    expect(await card(page, 'Users').count()).toBe(0);
    await page
      .getByRole('list', { name: 'Next scheduled posts' })
      .getByText('Home: goes out first')
      .waitFor();
    await page.context().close();
  });

  it.each([1280, 1024, 800])(
    'keeps an admin’s navigation on one row at %i px, every link reachable',
    async (width) => {
      const wide = await signedIn(browser, base, ADMIN, { width });
      const nav = wide.getByRole('navigation', { name: 'Dashboard' });
      const links = await nav.getByRole('link').all();
      expect(links.length).toBe(13);
      const signOut = nav.getByRole('button', { name: 'Sign out' });
      const brand = wide.getByRole('link', { name: 'Chorus', exact: true });
      const box = async (entry: Locator) =>
        (await entry.boundingBox()) ?? { x: 0, y: -1, width: 0, height: 0 };
      // Every link starts at the same height, and Sign out sits across that row; at 1280 px
      // the brand does too, narrower the row is under it.
      const boxes = await Promise.all([...links, signOut].map(box));
      const row = boxes[0] ?? { y: 0, height: 0 };
      expect(new Set(boxes.slice(0, links.length).map((b) => b.y)).size).toBe(1);
      const across = (b: { y: number; height: number }) =>
        b.y + b.height / 2 > row.y && b.y + b.height / 2 < row.y + row.height;
      expect(boxes.every(across)).toBe(true);
      const top = await box(brand);
      expect(across(top)).toBe(width === 1280);
      if (width < 1280) expect(top.y + top.height).toBeLessThanOrEqual(row.y);
      // At 1024 px the whole row fits; narrower, a link beyond the edge scrolls into view
      // within the row, and the page itself never scrolls sideways.
      const scrolls = await nav.evaluate((el) => el.scrollWidth > el.clientWidth);
      expect(scrolls).toBe(width < 1024);
      const last = links.at(-1) as Locator;
      await last.scrollIntoViewIfNeeded();
      const seen = await box(last);
      expect(seen.x + seen.width).toBeLessThanOrEqual(width);
      expect(seen.y).toBe(row.y);
      expect(await wide.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await wide.context().close();
    },
  );

  it('keeps the navigation in a menu at 375 px, which Escape closes', async () => {
    const phone = await signedIn(browser, base, ADMIN, { width: 375 });
    const menu = phone.getByRole('navigation', { name: 'Dashboard' });
    expect(await menu.isVisible()).toBe(false);
    const button = phone.getByRole('button', { name: 'Menu' });
    await button.click();
    for (const link of await menu.getByRole('link').all())
      expect(await link.isVisible()).toBe(true);
    // Escape closes it from inside, and focus goes back to the button.
    await menu.getByRole('link').first().focus();
    await phone.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    await phone.context().close();
  });

  it.each([1280, 800, 375])(
    'axe finds no serious or critical violation at %i px',
    async (width) => {
      const page = await signedIn(browser, base, ADMIN, { width });
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    },
  );
});
