/**
 * Screenshots of the dashboard's pages for the README and docs/dashboard.md, from a running app:
 *
 *   CHORUS_URL=http://localhost:3000 ADMIN_EMAIL=… ADMIN_PASSWORD=… CHORUS_API_KEY=… \
 *     npm run -w @chorus/e2e screenshots [-- composer post …]
 *
 * Writes docs/screenshots/<page>.png (wide) and <page>-phone.png (375 px), for the pages named
 * (all without names). `composer` and `post` need `CHORUS_API_KEY` (scopes write, content:read
 * and content:write) and an app started with `CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS=true`: they
 * connect Bluesky's reference PDS and a Mastodon stand-in run by this script, and publish a post
 * to both (see composer-scene.ts). Use a throwaway app: the connections stay behind.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium, signIn } from '../test/browser';
import { composerScene, MASTODON_TEXT, SHARED_TEXT } from './composer-scene';

const base = process.env.CHORUS_URL ?? 'http://localhost:3000';
const email = process.env.ADMIN_EMAIL ?? 'admin@example.com';
const password = process.env.ADMIN_PASSWORD ?? '';
const key = process.env.CHORUS_API_KEY ?? '';
const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const PAGES = [
  'home',
  'posts',
  'posts/calendar',
  'users',
  'integrations',
  'media',
  'analytics',
  'webhooks',
  'authorized-apps',
  'profile',
  'composer',
  'post',
];
const SCENE = new Set(['composer', 'post']);
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : PAGES;
const unknown = wanted.filter((name) => !PAGES.includes(name));
if (unknown.length > 0) throw new Error(`no such page: ${unknown.join(', ')}`);
const needsScene = wanted.some((name) => SCENE.has(name));
if (needsScene && !key) throw new Error('composer and post need CHORUS_API_KEY');
const scene = needsScene ? await composerScene(base, key) : undefined;

/** The composer with a post for both channels, Mastodon's tab showing its own text. */
async function compose(page: Page) {
  await page.goto('/dashboard/posts/new');
  await page.getByLabel('Title').fill('Spring collection, part two');
  const picker = page.getByRole('group', { name: 'Channels' });
  await picker.getByRole('checkbox', { name: /Bluesky/ }).check();
  await picker.getByRole('checkbox', { name: /Mastodon/ }).check();
  await page.getByLabel('Content').fill(SHARED_TEXT);
  await page
    .getByRole('group', { name: 'Media' })
    .getByRole('checkbox', { name: 'spring-collection.png' })
    .first()
    .check();
  await page.getByRole('tab', { name: /Mastodon/ }).click();
  const panel = page.getByRole('tabpanel', { name: /Mastodon/ });
  await panel.getByRole('checkbox', { name: /Write a different text/ }).check();
  await panel.getByLabel(/^Text for /).fill(MASTODON_TEXT);
  // The server's check has answered: nothing left to fix, Schedule enabled.
  const schedule = page.getByRole('button', { name: 'Schedule', exact: true });
  await page.waitForFunction(
    (button) => !(button as HTMLButtonElement).disabled,
    await schedule.elementHandle(),
    { timeout: 15_000 },
  );
  // The picture starts at the top of the page, with no field focused.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

/** Opens the page `name` and waits until it has drawn what it loads. */
async function open(page: Page, name: string) {
  if (name === 'composer') return compose(page);
  const path =
    name === 'home'
      ? '/dashboard'
      : name === 'post'
        ? `/dashboard/posts/${scene?.postId}`
        : `/dashboard/${name}`;
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

const browser = await launchChromium();
await mkdir(out, { recursive: true });
for (const [suffix, width] of [
  ['', 1280],
  ['-phone', 375],
] as const) {
  const page = await browser.newPage({ baseURL: base, viewport: { width, height: 860 } });
  await page.goto('/sign-in');
  await signIn(page, email, password);
  await page.waitForURL((url) => url.pathname === '/dashboard');
  for (const name of wanted) {
    await open(page, name);
    // What a page loads in the browser (the calendar's posts) is drawn before the picture.
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading'));
    // A nested page's file is named with dashes: posts/calendar → posts-calendar.png.
    const file = `${out}${name.replaceAll('/', '-')}${suffix}.png`;
    await page.screenshot({ path: file, fullPage: suffix === '' });
  }
  await page.close();
}
await browser.close();
await scene?.close();
console.log(`screenshots in ${out}`);
