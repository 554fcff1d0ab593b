import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect, inject, onTestFailed } from 'vitest';

/** Debian's Chromium (never a downloaded build), headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Fills the sign-in form; the page must be on /sign-in. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Where a signed-in context opens: its width in px (1280) and the browser's time zone (the machine's). */
export interface ContextOptions {
  width?: number;
  timezoneId?: string;
}

/** A new browser context, signed in and on the dashboard's home. */
export async function signedIn(
  browser: Browser,
  base: string,
  user: { email: string; password: string },
  { width = 1280, timezoneId }: ContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width, height: 900 },
    ...(timezoneId && { timezoneId }),
  });
  const page = await context.newPage();
  // A step that waited in vain says what the page showed instead, and what the server said
  // last (a flake on a slow machine leaves nothing else to read).
  onTestFailed(async () => {
    const shown = page.isClosed()
      ? '(closed)'
      : await page
          .locator('body')
          .innerText({ timeout: 5_000 })
          .catch((error: unknown) => `(unreadable: ${String(error)})`);
    const said = await readFile(inject('serverLog'), 'utf8').catch(() => '');
    console.error(
      `The page at ${page.url()} showed:\n${shown.slice(0, 4_000)}\n` +
        `The server's last lines:\n${said.split('\n').slice(-20).join('\n')}`,
    );
  });
  await page.goto('/sign-in');
  await signIn(page, user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/dashboard');
  return page;
}

/**
 * Where keyboard focus is, as `tag: name` (the element's aria-label, else its text), or
 * `body` when it was lost to the page's body (a keyboard user is sent back to the top).
 */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
    return `${element.tagName.toLowerCase()}: ${name.trim()}`;
  });
}

/**
 * What a control's `aria-describedby` says (its hint, its error), as a screen reader reads it
 * after the control's name: a refusal "beside the field" is tied to it there, not only near it.
 */
export function description(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

/** What axe-core finds serious or critical on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A refresh in flight (a server action's revalidation) swaps the document's <title> for a
  // moment: check the page as it settles, not mid-swap, where axe once saw no title at all.
  await page.waitForFunction(() => document.title.trim() !== '');
  // Only violations are read: axe skips describing every node that passes (most of its time
  // on a long page such as the API docs).
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .analyze();
  return [
    ...violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ...(await untitled(page)),
  ];
}

/**
 * WCAG 2.4.2, which axe checks only for a title being there: the title names the page first
 * ("Posts · Chorus" under the heading "Posts"), so tabs, history and a screen reader's list of
 * windows tell the pages apart.
 */
async function untitled(page: Page): Promise<string[]> {
  const { title, heading } = await page.evaluate(() => ({
    title: document.title,
    heading: document.querySelector('h1')?.textContent?.trim() ?? '',
  }));
  return title === heading || title.startsWith(`${heading} · `)
    ? []
    : [`page-title: "${title}" does not begin with the page's heading "${heading}"`];
}

/** No serious violation at a desktop's width (1280 px) nor at a phone's (375 px). */
export async function axeAtBothWidths(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A TOTP code (RFC 6238: HMAC-SHA1, 30 s, 6 digits) computed here, independently of the
 * app's own implementation, as an authenticator app would.
 */
export function totp(secretBase32: string, step = Math.floor(Date.now() / 30_000)): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32.replace(/=+$/, '')) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const bytes = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', bytes).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
