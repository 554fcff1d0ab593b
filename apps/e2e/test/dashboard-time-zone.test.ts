/**
 * The posts pages keep the account's time zone, not the reader's (the spec's decision: slots,
 * recurrence and the calendar are in the account's zone). The account is in Asia/Tokyo
 * (UTC+9) and the browser in America/New_York (UTC−5 or −4): a post at 08:30 in Tokyo is the
 * evening before in New York, and shows on Tokyo's day, at Tokyo's time, on every page; what is
 * typed in the composer is Tokyo's wall clock, and the home page's next posts are at Tokyo's
 * time. Every page says which zone it uses.
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, putAccountZone } from './api';
import { launchChromium, signedIn } from './browser';
import { addDays, DAY_MS, dayCell, timeInWords as inWords } from './calendar-words';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
const ACCOUNT_ZONE = 'Asia/Tokyo';
const BROWSER_ZONE = 'America/New_York';
// Other files share the server and its account: titles of this file's own.
const PLACED = 'Time zone e2e: breakfast in Tokyo';
const TYPED = 'Time zone e2e: typed on Tokyo’s clock';
const SOON = 'Time zone e2e: on the home page';
const NOTE = `Times are in the account’s time zone, ${ACCOUNT_ZONE}.`;
let browser: Browser;
let key = '';

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);

/** `YYYY-MM-DD` of an instant on the calendar of `zone`. */
const dayIn = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);

/** A Tokyo day some weeks ahead that no other file uses, never a Monday (the day before is in its week). */
function tokyoDay(daysAhead: number) {
  const day = dayIn(Date.now() + daysAhead * DAY_MS, ACCOUNT_ZONE);
  return new Date(`${day}T00:00:00Z`).getUTCDay() === 1 ? addDays(day, 1) : day;
}

/** A new browser context in New York, signed in. */
const signedInAt = () => signedIn(browser, base, ADMIN, { timezoneId: BROWSER_ZONE });

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-time-zone',
    'read,write,content:read,content:write',
  );
  await putAccountZone(key, ACCOUNT_ZONE);
  browser = await launchChromium();
});
afterAll(async () => {
  if (key) await putAccountZone(key, 'UTC');
  await browser?.close();
});

describe('the account’s time zone, read from another', () => {
  it('puts a post on the account’s day at the account’s time, on the calendar and its page', async () => {
    const day = tokyoDay(37);
    // 08:30 in Tokyo is 23:30 UTC the day before, and the evening before in New York.
    const at = Date.parse(`${day}T08:30:00+09:00`);
    expect(dayIn(at, BROWSER_ZONE)).toBe(addDays(day, -1));
    const created = await api('POST', '/api/content/posts', {
      title: PLACED,
      status: 'scheduled',
      scheduledAt: new Date(at).toISOString(),
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;

    const page = await signedInAt();
    for (const view of ['week', 'month']) {
      await page.goto(`/dashboard/posts/calendar?view=${view}&date=${day}`);
      await page.getByText(NOTE, { exact: true }).waitFor();
      const item = dayCell(page, day).getByRole('listitem').filter({ hasText: PLACED });
      await item.waitFor();
      expect(await item.locator('.time').textContent()).toBe('08:30');
      // A post without channels shows no channel marks, and no table's dash in their place.
      expect(await item.textContent()).not.toContain('—');
      expect(await dayCell(page, addDays(day, -1)).getByText(PLACED).count()).toBe(0);
      // A day without posts is drawn as the others, not in the empty state's dashed box.
      const box = (cell: Locator) =>
        cell.evaluate((element) => {
          const style = getComputedStyle(element);
          return [style.padding, style.textAlign, style.borderTopStyle, style.borderRadius];
        });
      expect(await box(dayCell(page, addDays(day, -1)))).toEqual(await box(dayCell(page, day)));
    }
    // Today is Tokyo's too.
    await page.goto('/dashboard/posts/calendar?view=week');
    await dayCell(page, dayIn(Date.now(), ACCOUNT_ZONE))
      .and(page.locator('[aria-current="date"]'))
      .waitFor();

    // Its page says Tokyo's time, and its time field holds Tokyo's wall clock.
    await page.goto(`/dashboard/posts/${id}`);
    await page.getByText(`Goes out ${inWords(at, ACCOUNT_ZONE)}`).waitFor();
    await page.getByText(NOTE, { exact: true }).waitFor();
    expect(await page.getByLabel('Publish at').inputValue()).toBe(`${day}T08:30`);
    await page.getByText(`In the account’s time zone, ${ACCOUNT_ZONE}.`, { exact: true }).waitFor();
    await page.context().close();
  });

  it('lists the next scheduled posts on the home page at the account’s time', async () => {
    // Within the hour, so that no post of another file comes before it in the next five.
    const at = Math.ceil((Date.now() + 30 * 60_000) / 60_000) * 60_000;
    const created = await api('POST', '/api/content/posts', {
      title: SOON,
      status: 'scheduled',
      scheduledAt: new Date(at).toISOString(),
    });
    expect(created.status).toBe(201);
    const page = await signedInAt();
    await page.goto('/dashboard');
    const item = page
      .getByRole('list', { name: 'Next scheduled posts' })
      .getByRole('listitem')
      .filter({ hasText: SOON });
    expect(await item.textContent()).toBe(`${SOON} · ${inWords(at, ACCOUNT_ZONE)}`);
    await page.getByText(NOTE, { exact: true }).waitFor();
    await page.context().close();
    const removed = await api('DELETE', `/api/content/posts/${created.json.data.id}`);
    expect(removed.status).toBe(204);
  });

  it('reads what is typed in the composer on the account’s clock', async () => {
    const day = tokyoDay(38);
    const page = await signedInAt();
    await page.goto('/dashboard/posts/new');
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
    await page.getByText(`In the account’s time zone, ${ACCOUNT_ZONE}.`, { exact: true }).waitFor();
    await page.getByLabel('Title').fill(TYPED);
    await page.getByLabel('Content').fill('Nine in the morning, Tokyo time.');
    const schedule = page.getByRole('button', { name: 'Schedule', exact: true });
    await expect.poll(() => schedule.isDisabled(), { timeout: 15_000 }).toBe(false);
    await page.getByLabel('Publish at').fill(`${day}T09:00`);
    await schedule.click();
    await page.getByRole('status').getByText(`Scheduled “${TYPED}”.`).waitFor();
    await page.waitForURL(/\/dashboard\/posts\/post_/);
    const id = page.url().split('/').at(-1) ?? '';
    // 09:00 in Tokyo is midnight UTC, whatever the browser's zone.
    const { json } = await api('GET', `/api/content/posts/${id}`);
    expect(json.data.scheduledAt).toBe(`${day}T00:00:00.000Z`);
    await expect.poll(() => page.getByLabel('Publish at').inputValue()).toBe(`${day}T09:00`);
    await page.context().close();
  });
});
