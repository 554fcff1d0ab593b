/**
 * The admin pages as a person uses them, in Chromium against `npm start`: users (create, sign
 * in as them, a refusal beside its field, everything typed kept), the profile (a new email or
 * password needs the current one; a changed password goes to sign in, which says why), the API
 * keys page (whose each key is, which expired; a refused key kept as typed), OAuth apps (a
 * refused registration kept as typed; a secret rotated, or refused beside its button),
 * integrations (an API-key one connected and disconnected, an unconfigured OAuth one's settings
 * whole in its card), what a `user` may not reach, and axe on every page (no serious or
 * critical violation).
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { description, launchChromium, seriousViolations, signedIn, signIn } from './browser';
import { cliApiKey } from './cli';
import { suiteDatabase } from './database';
import { ADMIN } from './server';

const base = inject('base');
const MEMBER = { name: 'Grace Member', email: 'grace@e2e.test', password: 'grace-password' };
const PAGES = [
  '/dashboard',
  '/dashboard/users',
  '/dashboard/integrations',
  '/dashboard/authorized-apps',
  '/dashboard/profile',
  '/dashboard/api-keys',
  '/dashboard/oauth-apps',
  '/dashboard/security',
];
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('users', () => {
  it('an admin creates a user, who then signs in; a taken email is refused beside the field', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Name').fill('Someone');
    await dialog.getByLabel('Email').fill(ADMIN.email);
    await dialog.getByLabel('Password').fill('some-password');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('A user with this email address already exists.').waitFor();
    // What was typed stays.
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Someone');
    await dialog.getByLabel('Name').fill(MEMBER.name);
    await dialog.getByLabel('Email').fill(MEMBER.email);
    await dialog.getByLabel('Password').fill(MEMBER.password);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').getByText(`${MEMBER.name} can now sign in`).waitFor();
    await page.getByRole('cell', { name: MEMBER.email }).waitFor();

    await page.getByLabel('Search').fill('GRACE');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'GRACE');
    // The admin's row leaves; Grace's stays.
    await page.getByRole('cell', { name: ADMIN.email }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: MEMBER.email }).waitFor();

    const member = await signedIn(browser, base, MEMBER);
    await member.getByRole('link', { name: 'Profile' }).click();
    await member.getByLabel('Name').fill('Grace Renamed');
    await member.getByRole('button', { name: 'Save profile' }).click();
    await member.getByRole('status').getByText('Profile saved.').waitFor();
    await member.context().close();

    // The last admin cannot be demoted: the refusal shows next to the role.
    await page.goto('/dashboard/users?role=admin');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Role').selectOption('user');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('The last admin of an account cannot be removed or demoted.').waitFor();
    // Shown beside the role it concerns: the select is marked invalid and described by it.
    expect(await edit.getByLabel('Role').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  });

  it('a refused form keeps everything typed, the password too; an edited field’s error goes', async () => {
    const kim = { name: 'Kim Kept', email: 'kim-kept@e2e.test', password: 'kim-password' };
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/users');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Name').fill(kim.name);
    await dialog.getByLabel('Email').fill(ADMIN.email);
    await dialog.getByLabel('Password').fill(kim.password);
    await dialog.getByLabel('Role').selectOption('admin');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    const taken = dialog.getByText('A user with this email address already exists.');
    await taken.waitFor();
    // Every field as typed: the password stays in the browser (it never travels back).
    expect(await dialog.getByLabel('Name').inputValue()).toBe(kim.name);
    expect(await dialog.getByLabel('Email').inputValue()).toBe(ADMIN.email);
    expect(await dialog.getByLabel('Password').inputValue()).toBe(kim.password);
    expect(await dialog.getByLabel('Role').inputValue()).toBe('admin');
    // A new email answers the refusal: it no longer shows under the new address.
    await dialog.getByLabel('Email').fill(kim.email);
    await taken.waitFor({ state: 'detached' });
    expect(await dialog.getByLabel('Email').getAttribute('aria-invalid')).toBeNull();
    // Sent again as it stands, the kept password with it.
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').getByText(`${kim.name} can now sign in`).waitFor();
    await page.context().close();
    await (await signedIn(browser, base, kim)).context().close();
  });

  it('a user sees no admin page or action', async () => {
    const page = await signedIn(browser, base, MEMBER);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Home' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'OAuth apps' }).count()).toBe(0);
    await page.goto('/dashboard/users');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await page.getByText('Users', { exact: true }).count()).toBe(0);
    // Home says why it is there.
    await page
      .getByRole('alert')
      .getByText('Users is for admins: ask an admin of this account', { exact: false })
      .waitFor();
    // Not without reason: home itself says nothing of it.
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await page.getByText('Users is for admins', { exact: false }).count()).toBe(0);
    await page.context().close();
  });
});

describe('profile', () => {
  it('a new email or password needs the current password, refused beside its field', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-profile', 'read,write');
    const user = { name: 'Pat Profile', email: 'pat-profile@e2e.test', password: 'pat-password' };
    const created = await callApi(key, 'POST', '/api/users', { ...user, role: 'user' });
    expect(created.status).toBe(201);
    const moved = { email: 'pat-moved@e2e.test', password: 'pat-new-password' };
    const page = await signedIn(browser, base, user);
    await page.goto('/dashboard/profile');
    const form = (button: string) =>
      page.locator('form').filter({ has: page.getByRole('button', { name: button }) });
    const profile = form('Save profile');
    await profile.getByLabel('Email').fill(moved.email);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Enter your current password.').waitFor();
    expect(await profile.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await profile.getByLabel('Email').fill(moved.email);
    await profile.getByLabel('Current password').fill(user.password);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Profile saved.').waitFor();

    const password = form('Change password');
    const change = async (current: string) => {
      await password.getByLabel('Current password').fill(current);
      await password.getByLabel('New password', { exact: true }).fill(moved.password);
      await password.getByLabel('Repeat the new password').fill(moved.password);
      await password.getByRole('button', { name: 'Change password' }).click();
    };
    await change('not-my-password');
    await password.getByText('The current password is wrong.').waitFor();
    expect(await password.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    // The change ends every session, this one too (docs/security.md): the sign-in page says
    // why, and the new password signs in there, back to Profile.
    await change(user.password);
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page
      .getByRole('status')
      .getByText('Your password was changed: sign in with the new one.')
      .waitFor();
    await signIn(page, moved.email, moved.password);
    await page.waitForURL((url) => url.pathname === '/dashboard/profile');
    await page.context().close();
  });

  it('a refused password change keeps what was typed; a mismatch is said before sending; an edit clears its error', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-password-form', 'read,write');
    const user = { name: 'Quinn Typed', email: 'quinn-typed@e2e.test', password: 'quinn-password' };
    const created = await callApi(key, 'POST', '/api/users', { ...user, role: 'user' });
    expect(created.status).toBe(201);
    const page = await signedIn(browser, base, user);
    await page.goto('/dashboard/profile');
    const password = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Change password' }) });
    const current = password.getByLabel('Current password');
    const fresh = password.getByLabel('New password', { exact: true });
    const repeat = password.getByLabel('Repeat the new password');
    const typed = async () => [
      await current.inputValue(),
      await fresh.inputValue(),
      await repeat.inputValue(),
    ];
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(request.url());
    });
    await current.fill(user.password);
    await fresh.fill('quinn-new-password');
    await repeat.fill('quinn-other-password');
    await password.getByRole('button', { name: 'Change password' }).click();
    const differs = password.getByText('Does not match the new password.');
    await differs.waitFor();
    // Said by the browser: nothing was sent, and nothing typed is lost.
    expect(posted).toEqual([]);
    expect(await typed()).toEqual([user.password, 'quinn-new-password', 'quinn-other-password']);
    // Retyped to match, the error goes.
    await repeat.fill('quinn-new-password');
    await differs.waitFor({ state: 'detached' });
    expect(await repeat.getAttribute('aria-invalid')).toBeNull();

    // The server's refusal keeps every field too; editing the one at fault clears its error.
    await current.fill('not-my-password');
    await password.getByRole('button', { name: 'Change password' }).click();
    const wrong = password.getByText('The current password is wrong.');
    await wrong.waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await typed()).toEqual(['not-my-password', 'quinn-new-password', 'quinn-new-password']);
    await current.fill(user.password);
    await wrong.waitFor({ state: 'detached' });
    expect(await current.getAttribute('aria-invalid')).toBeNull();
    await page.context().close();
  });
});

describe('an admin’s own row in Users', () => {
  it('asks for the current password once the email changes, beside the field, as Profile does', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-own-row', 'read,write');
    const self = { name: 'Ada Self', email: 'ada-self@e2e.test', password: 'ada-password' };
    const created = await callApi(key, 'POST', '/api/users', { ...self, role: 'admin' });
    expect(created.status).toBe(201);
    const page = await signedIn(browser, base, self);
    await page.goto(`/dashboard/users?q=${encodeURIComponent(self.email)}`);
    await page.getByRole('button', { name: `Edit ${self.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${self.name}` });
    const current = dialog.getByLabel('Current password');
    // Nothing asked while the email stays (a name or a role needs no password).
    await dialog.getByLabel('Name').fill('Ada Renamed');
    expect(await current.count()).toBe(0);
    const moved = 'ada-moved@e2e.test';
    await dialog.getByLabel('Email', { exact: true }).fill(moved);
    await current.waitFor();
    // Left empty, the refusal shows beside it, the new email kept.
    await current.evaluate((input) => input.removeAttribute('required'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter your current password.').waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).toBe(moved);
    await current.fill(self.password);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved Ada Renamed.').waitFor();
    const { json } = await callApi(key, 'GET', `/api/users/${created.json.id}`);
    expect(json.email).toBe(moved);
    // Another user's row asks for no password: an admin provisions their email.
    await page.goto(`/dashboard/users?q=${encodeURIComponent(MEMBER.email)}`);
    await page.getByRole('button', { name: /^Edit / }).click();
    await page
      .getByRole('dialog')
      .getByLabel('Email', { exact: true })
      .fill('grace-moved@e2e.test');
    expect(await page.getByRole('dialog').getByLabel('Current password').count()).toBe(0);
    await page.context().close();
  });
});

describe('API keys', () => {
  it("an admin sees the account's keys with their owner, and which expired", async () => {
    await cliApiKey(MEMBER.email, 'e2e-grace-live', 'read');
    await cliApiKey(MEMBER.email, 'e2e-grace-expired', 'read');
    const sql = await suiteDatabase();
    try {
      await sql`update api_keys set expires_at = now() - interval '1 minute' where name = 'e2e-grace-expired'`;
    } finally {
      await sql.end();
    }
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/api-keys');
    await page.getByRole('heading', { name: "The account's keys", level: 2 }).waitFor();
    await page.getByRole('columnheader', { name: 'Owner' }).waitFor();
    const live = page.getByTestId('api-key-e2e-grace-live');
    expect(await live.textContent()).toContain(MEMBER.email);
    await live.getByRole('button', { name: 'Revoke' }).waitFor();
    const expired = page.getByTestId('api-key-e2e-grace-expired');
    await expired.getByText('Expired', { exact: true }).waitFor();
    expect(await expired.textContent()).toContain(MEMBER.email);
    expect(await expired.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await page.context().close();

    // A user sees only their own keys, under a heading that says so, without an owner column.
    const member = await signedIn(browser, base, MEMBER);
    await member.goto('/dashboard/api-keys');
    await member.getByRole('heading', { name: 'Your keys', level: 2 }).waitFor();
    await member.getByTestId('api-key-e2e-grace-live').waitFor();
    expect(await member.getByRole('columnheader', { name: 'Owner' }).count()).toBe(0);
    await member.context().close();
  });

  it('a refused key keeps its name, scopes, environment and expiry, the refusal beside its field', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/api-keys');
    const form = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Create key' }) });
    const name = form.getByLabel('Name');
    const write = form.locator('input[name="scopes"][value="write"]');
    const environment = form.getByLabel('Environment');
    const expires = form.getByLabel('Expires (optional)');
    const day = (fromToday: number) =>
      new Date(Date.now() + fromToday * 86_400_000).toISOString().slice(0, 10);
    await name.fill('e2e-kept-key');
    await write.check();
    await environment.selectOption('test');
    // Two days ago in UTC, whatever the machine's zone: the key would never work.
    await expires.fill(day(-2));
    await form.getByRole('button', { name: 'Create key' }).click();
    const past = form.getByText('Must be in the future.', { exact: true });
    await past.waitFor();
    expect(await expires.getAttribute('aria-invalid')).toBe('true');
    expect(await description(expires)).toBe('Must be in the future.');
    expect(await name.inputValue()).toBe('e2e-kept-key');
    expect(await write.isChecked()).toBe(true);
    expect(await environment.inputValue()).toBe('test');
    expect(await expires.inputValue()).toBe(day(-2));
    // A later day answers the refusal: its error goes; the key is then made as chosen.
    await expires.fill(day(30));
    await past.waitFor({ state: 'detached' });
    expect(await expires.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('one-time-secret').textContent()) ?? '';
    expect(secret).toMatch(/^csk_test_/);
    const row = page.getByTestId('api-key-e2e-kept-key');
    await row.waitFor();
    expect(await row.textContent()).toContain('read, write');
    // Made, the form is empty again for the next key.
    expect(await name.inputValue()).toBe('');
    await page.context().close();
  });
});

describe('OAuth apps', () => {
  it('a refused registration keeps everything typed and chosen, the refusal beside its field', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/oauth-apps');
    const form = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Register' }) });
    const name = form.getByLabel('Name');
    const uris = form.getByLabel('Redirect URIs');
    const write = form.locator('input[name="scopes"][value="write"]');
    const publicType = form.getByLabel(/^Public/);
    await name.fill('E2E Kept App');
    // Plain http is for localhost only.
    await uris.fill('http://kept.example.com/callback');
    await write.check();
    await publicType.check();
    await form.getByRole('button', { name: 'Register' }).click();
    const refused = form.getByText(
      'Must be an absolute https URL (http only on localhost), without a fragment or credentials.',
      { exact: true },
    );
    await refused.waitFor();
    // The toast names the field as the form labels it.
    await page
      .getByRole('status')
      .getByText('Redirect URIs: Must be an absolute https URL', { exact: false })
      .waitFor();
    expect(await uris.getAttribute('aria-invalid')).toBe('true');
    expect(await description(uris)).toContain('Must be an absolute https URL');
    expect(await name.inputValue()).toBe('E2E Kept App');
    expect(await uris.inputValue()).toBe('http://kept.example.com/callback');
    expect(await write.isChecked()).toBe(true);
    expect(await publicType.isChecked()).toBe(true);
    // Corrected, the error goes, and the application registers as chosen: public, no secret.
    await uris.fill('https://kept.example.com/callback');
    await refused.waitFor({ state: 'detached' });
    expect(await uris.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Register' }).click();
    expect(await page.getByTestId('new-client-id').textContent()).toMatch(/^app_/);
    const app = page.getByTestId('oauth-app-E2E Kept App');
    await app.getByText('public', { exact: true }).waitFor();
    expect(await app.textContent()).toContain('read, write');
    expect(await page.getByTestId('one-time-secret').count()).toBe(0);
    await page.context().close();
  });

  it('rotates a secret, shown once; a refused rotation says why beside the button', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/oauth-apps');
    await page.getByLabel('Name').fill('E2E Rotated App');
    await page.getByLabel('Redirect URIs').fill('https://rotated.example.com/callback');
    await page.getByRole('button', { name: 'Register' }).click();
    const app = page.getByTestId('oauth-app-E2E Rotated App');
    await app.waitFor();
    await app.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('status').getByText('Rotated the secret of “E2E Rotated App”.').waitFor();
    expect(await app.getByTestId('one-time-secret').textContent()).toMatch(/^cso_cs_/);
    // Deleted meanwhile (another tab, another admin): the rotation is refused, and says so
    // beside its button and in a toast.
    const other = await page.context().newPage();
    await other.goto('/dashboard/oauth-apps');
    await other
      .getByTestId('oauth-app-E2E Rotated App')
      .getByRole('button', { name: 'Delete' })
      .click();
    await other.getByTestId('oauth-app-E2E Rotated App').waitFor({ state: 'detached' });
    await app.getByRole('button', { name: 'Rotate secret' }).click();
    const gone = 'Confidential OAuth application not found.';
    await app.getByRole('alert').getByText(gone).waitFor();
    await page.getByRole('status').getByText(gone).waitFor();
    await page.context().close();
  });
});

describe('integrations', () => {
  it('connects an API-key platform and disconnects it', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/integrations?category=design');
    await page.getByRole('button', { name: 'Connect Unsplash' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Unsplash' });
    await dialog.getByLabel('API key').fill('unsplash-test-key-123');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('status').getByText('Connected Unsplash.').waitFor();
    await page.getByRole('cell', { name: 'Unsplash', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Disconnect Unsplash' }).click();
    await page
      .getByRole('dialog', { name: 'Disconnect Unsplash?' })
      .getByRole('button', { name: 'Disconnect Unsplash' })
      .click();
    await page.getByRole('status').getByText('Disconnected Unsplash.').waitFor();
    await page.getByText('Nothing connected yet').waitFor();
    await page.context().close();
  });

  it('a user sees the catalogue without connect controls (connecting is for admins)', async () => {
    const page = await signedIn(browser, base, MEMBER);
    await page.goto('/dashboard/integrations?category=design');
    await page.getByRole('heading', { name: 'Unsplash' }).waitFor();
    await page.getByText('Only admins can connect or disconnect them.').waitFor();
    expect(await page.getByRole('button', { name: /^Connect / }).count()).toBe(0);
    await page.context().close();
  });

  it.each([1280, 375])(
    'an OAuth platform the deployment has not configured names the settings to set, whole, at %i px',
    async (width) => {
      const page = await signedIn(browser, base, ADMIN, { width });
      await page.goto('/dashboard/integrations?category=social');
      await page.getByRole('button', { name: 'Connect Facebook' }).click();
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'Facebook' }) });
      const alert = card.getByRole('alert');
      await alert.getByText('CHORUS_INTEGRATION_FACEBOOK_CLIENT_ID', { exact: false }).waitFor();
      // Every line of the card's text inside its box: the names to copy wrap, not run under
      // the next card.
      expect(await outside(card)).toEqual([]);
      // And they can be selected, to copy.
      await alert.click({ clickCount: 3 });
      expect(await page.evaluate(() => String(window.getSelection()))).toContain(
        'CHORUS_INTEGRATION_FACEBOOK_CLIENT_SECRET',
      );
      await page.context().close();
    },
  );
});

/** The text of `box` drawn past its right edge, one line each (none when everything wraps). */
function outside(box: Locator): Promise<string[]> {
  return box.evaluate((element) => {
    const right = element.getBoundingClientRect().right;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const past: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.right > right + 0.5) past.push(node.textContent?.trim().slice(0, 60) ?? '');
      }
    }
    return past;
  });
}

describe('accessibility', () => {
  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedIn(browser, base, ADMIN, { width });
    for (const path of PAGES) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.context().close();
  });
});
