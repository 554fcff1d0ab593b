/**
 * Account settings as a person uses them, in Chromium against `npm start`: an admin picks
 * the time zone from those the server accepts and sets approval (an unknown zone sent anyway is
 * refused beside its field, what was sent kept, its toast naming the field and gone once a save
 * succeeds), a `user` reads them without a form; axe at 1280 and 375 px.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
const MEMBER = { name: 'Sam Settings', email: 'sam-settings@e2e.test', password: 'sam-password' };
let browser: Browser;
let key = '';

beforeAll(async () => {
  key = await cliApiKey(ADMIN.email, 'e2e-dashboard-settings', 'read,write');
  const created = await callApi(key, 'POST', '/api/users', { ...MEMBER, role: 'user' });
  expect([201, 400]).toContain(created.status);
  browser = await launchChromium();
});
afterAll(async () => {
  // Other files share the account: its settings go back to the defaults.
  if (key)
    await callApi(key, 'PUT', '/api/account/settings', { timeZone: 'UTC', requireApproval: false });
  await browser?.close();
});

describe('account settings', () => {
  it('an admin changes them; an unknown zone is refused beside the field', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
    const zone = page.getByLabel('Time zone');
    // Picked from the zones the server accepts, never typed.
    expect(await zone.evaluate((element) => element.tagName)).toBe('SELECT');
    expect(await zone.inputValue()).toBe('UTC');
    const offered = await zone
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(offered).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'America/New_York']));
    // A client that sends another anyway (an option added by hand) is refused beside the field.
    await zone.evaluate((select) => select.append(new Option('Mars/Olympus', 'Mars/Olympus')));
    await zone.selectOption('Mars/Olympus');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByText('Must be an IANA time zone name, such as Europe/Berlin or UTC.', { exact: true })
      .waitFor();
    expect(await page.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Mars/Olympus');
    // The toast names the field as the form labels it, not by the request's path.
    const refusal = page.getByRole('status').getByText(/Must be an IANA time zone name/);
    expect(await refusal.textContent()).toMatch(/^Time zone: /);

    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel("Members' posts need an admin's approval").check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    // The refusal's toast does not stay beside the success that answered it.
    expect(await refusal.count()).toBe(0);
    const { json } = await callApi(key, 'GET', '/api/account/settings');
    expect(json.data).toEqual({ requireApproval: true, timeZone: 'Europe/Berlin' });
    await page.context().close();
  });

  it('a user reads them, with no form', async () => {
    const page = await signedIn(browser, base, MEMBER);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
    await page.getByText('Europe/Berlin').waitFor();
    await page.getByText('Only admins can change these.').waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await page.context().close();
  });

  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    for (const user of [ADMIN, MEMBER]) {
      const page = await signedIn(browser, base, user, { width });
      await page.goto('/dashboard/settings');
      await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});
