/**
 * The dashboard's layout holds at a desktop's width (1280 px) and a phone's (390 px), in
 * Chromium against `npm start`: a 300-letter title with no space wraps in the posts list, on
 * its page and in its confirmation, the users table's hidden header stays in its scroll box,
 * the API keys form fits its panel, an OAuth app's long redirect URI wraps in its panel; a
 * list's page past its last says so and links to the first; the site has an icon
 * (docs/dashboard.md: the page never scrolls sideways); a skip link is the first Tab stop and
 * leads past the navigation to the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { focused, launchChromium, signedIn } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
// Valid (300 characters), with no place a line may break.
const LONG = 'Supercalifragilistic'.repeat(15);
let browser: Browser;
let key = '';
let id = '';

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-layout',
    'read,write,content:read,content:write',
  );
  const created = await callApi(key, 'POST', '/api/content/posts', { title: LONG });
  expect(created.status).toBe(201);
  id = created.json.data.id as string;
  browser = await launchChromium();
});
afterAll(async () => {
  if (id) await callApi(key, 'DELETE', `/api/content/posts/${id}`);
  await browser?.close();
});

/** How far the page scrolls sideways (0: it does not). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the layout', () => {
  it.each([1280, 390])(
    'wraps a long title instead of scrolling sideways at %i px',
    async (width) => {
      const page = await signedIn(browser, base, ADMIN, { width });
      await page.goto(`/dashboard/posts?q=${LONG.slice(0, 40)}`);
      const link = page.getByRole('link', { name: LONG });
      await link.waitFor();
      expect(await sideways(page)).toBe(0);
      // Wrapped, the other columns stay in view beside it.
      const row = page.getByRole('row').filter({ has: link });
      const when = row.getByRole('cell').last();
      const box = await when.boundingBox();
      if (width === 1280)
        expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual(width);

      await page.goto(`/dashboard/posts/${id}`);
      await page.getByRole('heading', { name: 'Post', level: 1 }).waitFor();
      const subtitle = page.locator('p.lead', { hasText: LONG });
      expect((await subtitle.boundingBox())?.width ?? Infinity).toBeLessThanOrEqual(width);
      expect(await sideways(page)).toBe(0);
      // Its delete confirmation names it, inside the dialog.
      await page.getByRole('button', { name: `Delete the post “${LONG}”` }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this post?' });
      const described = await dialog.getByText(LONG, { exact: false }).boundingBox();
      const frame = await dialog.boundingBox();
      expect((described?.x ?? 0) + (described?.width ?? Infinity)).toBeLessThanOrEqual(
        (frame?.x ?? 0) + (frame?.width ?? 0),
      );
      await page.keyboard.press('Escape');
      await page.context().close();
    },
  );

  it('keeps the users table and the API keys form inside a phone’s width', async () => {
    const page = await signedIn(browser, base, ADMIN, { width: 390 });
    await page.goto('/dashboard/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('table').first().waitFor();
    expect(await sideways(page)).toBe(0);

    await page.goto('/dashboard/api-keys');
    const form = page.getByRole('heading', { name: 'Create a key' });
    await form.waitFor();
    expect(await sideways(page)).toBe(0);
    const panel = await page.locator('section.panel', { has: form }).boundingBox();
    for (const label of ['Name', 'Environment', 'Expires (optional)']) {
      const box = await page.getByLabel(label).boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(
        (panel?.x ?? 0) + (panel?.width ?? 0),
      );
    }
    await page.context().close();
  });
});

describe('long words on cards and lists', () => {
  it('wraps an OAuth app’s long redirect URI inside its panel at 390 px', async () => {
    const uri = `https://scheduler.example.com/${'callback'.repeat(12)}`;
    const page = await signedIn(browser, base, ADMIN, { width: 390 });
    await page.goto('/dashboard/oauth-apps');
    await page.getByLabel('Name').fill('E2E Long URI');
    await page.getByLabel('Redirect URIs').fill(uri);
    await page.locator('input[name="scopes"][value="read"]').check();
    await page.getByRole('button', { name: 'Register' }).click();
    const app = page.getByTestId('oauth-app-E2E Long URI');
    await app.getByText(uri).waitFor();
    expect(await sideways(page)).toBe(0);
    const panel = await page.locator('section.panel', { has: app }).boundingBox();
    const shown = await app.getByText(uri).boundingBox();
    expect((shown?.x ?? 0) + (shown?.width ?? Infinity)).toBeLessThanOrEqual(
      (panel?.x ?? 0) + (panel?.width ?? 0),
    );
    await page.context().close();
  });
});

describe('the skip link', () => {
  it.each([1280, 390])(
    'is the first Tab stop, shown while focused, and skips the navigation at %i px',
    async (width) => {
      const page = await signedIn(browser, base, ADMIN, { width });
      await page.goto('/dashboard/users');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      const skip = page.getByRole('link', { name: 'Skip to content' });
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('a: Skip to content');
      // Seen while it has focus (WCAG 2.4.7), out of sight otherwise.
      const shown = await skip.boundingBox();
      expect(shown?.width).toBeGreaterThan(40);
      expect([shown?.x, shown?.y].every((at) => at !== undefined && at >= 0)).toBe(true);
      await page.keyboard.press('Enter');
      const inMain = () => page.evaluate(() => !!document.activeElement?.closest('main'));
      await expect.poll(inMain).toBe(true);
      expect(((await skip.boundingBox())?.width ?? 0) <= 1).toBe(true);
      // The next Tab reaches the page's first control, past the logo and every menu link.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('button: Create user');
      await page.context().close();
    },
  );
});

describe('a page past the last', () => {
  it('says so, with a link to the first page, not that the list is empty', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/posts?page=99');
    await page.getByText('Nothing on this page').waitFor();
    expect(await page.getByText('No posts yet').count()).toBe(0);
    await page.getByRole('link', { name: 'Go to page 1' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/posts' && !url.search);
    await page.getByRole('link', { name: LONG }).waitFor();
    await page.context().close();
  });
});

describe('the icon', () => {
  it('is named by the pages and answers /favicon.ico', async () => {
    const page = await signedIn(browser, base, ADMIN);
    const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
    const icon = await fetch(new URL(href ?? '/missing', base));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\//);
    // Browsers also ask for it where a page names no icon (the API docs).
    const favicon = await fetch(`${base}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\//);
    await page.context().close();
  });
});
