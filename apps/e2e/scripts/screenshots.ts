/**
 * Screenshots of the dashboard's main pages for the README, from a running app:
 *
 *   CHORUS_URL=http://localhost:3000 ADMIN_EMAIL=… ADMIN_PASSWORD=… npm run -w @chorus/e2e screenshots
 *
 * Writes docs/screenshots/<page>.png (wide) and <page>-phone.png (375 px).
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromium, signIn } from '../test/browser';

const base = process.env.CHORUS_URL ?? 'http://localhost:3000';
const email = process.env.ADMIN_EMAIL ?? 'admin@example.com';
const password = process.env.ADMIN_PASSWORD ?? '';
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
];

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
  for (const name of PAGES) {
    await page.goto(name === 'home' ? '/dashboard' : `/dashboard/${name}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // What a page loads in the browser (the calendar's posts) is drawn before the picture.
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .loading'));
    // A nested page's file is named with dashes: posts/calendar → posts-calendar.png.
    const file = `${out}${name.replaceAll('/', '-')}${suffix}.png`;
    await page.screenshot({ path: file, fullPage: suffix === '' });
  }
  await page.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
