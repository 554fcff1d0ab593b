/**
 * The dashboard as a person uses it, in Chromium against `npm start`: sign-in and sign-out
 * (here and everywhere), API keys (created, used, revoked), the session on the tRPC door, and
 * two-factor authentication (enrolled from the QR code's secret, then asked for at sign-in; a
 * refused code kept as typed).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { description, focused, launchChromium, signIn, totp } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  return context.newPage();
}

const api = (token: string, init: RequestInit = {}, path = '/api/users') =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });

describe('sign-in', () => {
  it('sends a signed-out visitor to sign in, and back to the page asked for', async () => {
    const page = await newPage();
    await page.goto('/dashboard/security');
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe('/dashboard/security');
    await signIn(page, ADMIN.email, 'wrong-password');
    await page.getByText('The email or password is not right.').waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/dashboard/security');
    await page.context().close();
  });

  it('answers a signed-out request for a page with a redirect, not a page that redirects', async () => {
    const get = (cookie?: string, method = 'GET') =>
      fetch(`${base}/dashboard/security?tab=keys`, {
        method,
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
    const signInAt = `/sign-in?callbackUrl=${encodeURIComponent('/dashboard/security?tab=keys')}`;
    for (const cookie of [undefined, 'next-auth.session-token=forged']) {
      const res = await get(cookie);
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe(signInAt);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect((await get(undefined, 'HEAD')).status).toBe(307);
    const page = await newPage();
    await page.goto(signInAt);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/dashboard/security?tab=keys');
    const cookie = (await page.context().cookies())
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
    expect((await get(cookie)).status).toBe(200);
    await page.context().close();
  });

  it('keeps credentials out of URLs before the form is live: no native submit', async () => {
    // Without JavaScript the form is as it is before hydration: the button is disabled, so
    // neither a click nor Enter can send the password as a GET query string.
    const context = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
    const bare = await context.newPage();
    await bare.goto('/sign-in');
    const button = bare.getByRole('button', { name: 'Sign in' });
    expect(await button.isDisabled()).toBe(true);
    await bare.getByLabel('Email').fill(ADMIN.email);
    await bare.getByLabel('Password').fill(ADMIN.password);
    await bare.getByLabel('Password').press('Enter');
    expect(new URL(bare.url()).search).toBe('');
    expect(await bare.locator('form').getAttribute('method')).toBe('post');
    await context.close();
    // With JavaScript, the same form signs in once it is live.
    const page = await newPage();
    await page.goto('/sign-in');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.context().close();
  });

  it('never follows a callbackUrl off the site', async () => {
    const page = await newPage();
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent('https://evil.example/x')}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(new URL(page.url()).origin).toBe(base);
    await page.context().close();
  });

  it('signs out, ending the session on the server (a kept copy of the cookie is refused)', async () => {
    const page = await newPage();
    await page.goto('/sign-in');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    const cookie = (await page.context().cookies())
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
    const status = () =>
      fetch(`${base}/api/trpc/twoFactor.status`, { headers: { cookie } }).then((r) => r.status);
    expect(await status()).toBe(200);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(await status()).toBe(401);
    await page.goto('/dashboard/api-keys');
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.context().close();
  });

  it('signs out everywhere: every session of the user ends, and sign-in says why', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-everywhere', 'read,write');
    const user = { email: 'e2e-everywhere@example.test', password: 'e2e-everywhere-password' };
    const created = await api(key, {
      method: 'POST',
      body: JSON.stringify({ name: 'Every Where', ...user }),
    });
    expect(created.status).toBe(201);
    const signedInAs = async () => {
      const page = await newPage();
      await page.goto('/sign-in');
      await signIn(page, user.email, user.password);
      await page.waitForURL((url) => url.pathname === '/dashboard');
      return page;
    };
    const elsewhere = await signedInAs();
    const page = await signedInAs();
    await page.goto('/dashboard/security');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.getByRole('status').getByText('You were signed out on every device.').waitFor();
    // The other browser's session ended too: its next page asks for a sign-in.
    await elsewhere.goto('/dashboard');
    await elsewhere.waitForURL((url) => url.pathname === '/sign-in');
    await page.context().close();
    await elsewhere.context().close();
  });
});

describe('API keys and the tRPC door', () => {
  it('creates a key shown once, which works until it is revoked', async () => {
    const page = await newPage();
    await page.goto('/sign-in?callbackUrl=/dashboard/api-keys');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/dashboard/api-keys');
    await page.getByLabel('Name').fill('e2e-key');
    await page.locator('input[name="scopes"][value="write"]').check();
    await page.getByLabel('Environment').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('one-time-secret').textContent()) ?? '';
    expect(secret).toMatch(/^csk_test_[0-9A-Za-z]{32,}$/);
    const row = page.getByTestId('api-key-e2e-key');
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(-4));
    expect(await row.textContent()).not.toContain(secret);

    expect((await api(secret)).status).toBe(200);

    // The dashboard's session works on the tRPC door too, from the dashboard's own origin.
    const listed = await page.evaluate(async () => {
      const res = await fetch('/api/trpc/apiKeys.list');
      return { status: res.status, body: await res.json() };
    });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('e2e-key');
    // Without the session (or from another site), the door knows no one.
    expect((await fetch(`${base}/api/trpc/apiKeys.list`)).status).toBe(401);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();
    // When it was last used (the call above), in UTC and said so, as every such time.
    expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect((await api(secret)).status).toBe(401);
    await page.context().close();
  });
});

/**
 * Confirms an enrollment with the authenticator's current code, as a person would: a code typed
 * as its 30 seconds ran out is refused, and the next is typed. Answers the step of the code.
 */
async function confirmEnrollment(page: Page, secret: string): Promise<number> {
  const code = page.getByLabel('Code from your app');
  const confirm = async () => {
    const step = Math.floor(Date.now() / 30_000);
    await code.fill(totp(secret, step));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    return step;
  };
  let step = await confirm();
  const enabled = page.getByText('Signing in asks for a code');
  const refused = page.locator('input[name="code"][aria-invalid="true"]');
  await enabled
    .or(refused)
    .waitFor({ timeout: 60_000 })
    .catch(async (error: unknown) => {
      throw new Error(
        `no answer to the code; the page says: ${await page.locator('main').innerText()}`,
        { cause: error },
      );
    });
  if (await refused.isVisible()) step = await confirm();
  await enabled.waitFor();
  return step;
}

describe('two-factor authentication', () => {
  const USER = { email: 'e2e-2fa@example.test', password: 'e2e-2fa-password' };
  let operatorKey = '';
  let userId = '';

  beforeAll(async () => {
    // A second user, made as an operator would: a key from the CLI, then the REST API.
    operatorKey = await cliApiKey(ADMIN.email, 'e2e-2fa', 'read,write');
    const created = await api(operatorKey, {
      method: 'POST',
      body: JSON.stringify({ name: 'Two Factor', ...USER }),
    });
    expect(created.status).toBe(201);
    userId = (await created.json()).id;
    const before = await api(operatorKey, {}, `/api/users/${userId}`);
    expect((await before.json()).lastLogin).toBeNull();
  });

  it('is enrolled by scanning the QR code and confirming a code; then sign-in asks for a code', async () => {
    const page = await newPage();
    await page.goto('/sign-in?callbackUrl=/dashboard/security');
    await signIn(page, USER.email, USER.password);
    await page.waitForURL((url) => url.pathname === '/dashboard/security');
    const status = page.getByTestId('two-factor-status');
    await status.waitFor().catch(async (error: unknown) => {
      throw new Error(`no status; the page says: ${await page.locator('body').innerText()}`, {
        cause: error,
      });
    });
    expect(await status.textContent()).toContain('Off');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The button gave way to the QR code: focus is on the section's heading, read next from
    // there, not lost to the body.
    await expect.poll(() => focused(page)).toBe('h2: Two-factor authentication');
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const enrolledAt = await confirmEnrollment(page, secret);
    await expect.poll(() => focused(page)).toBe('h2: Two-factor authentication');
    // The secret is gone from the page once enrolled.
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await signIn(page, USER.email, USER.password);
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    await codeField.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not valid.').waitFor();

    // A code works once: the enrollment's is spent, so wait for the authenticator's next one.
    while (Math.floor(Date.now() / 30_000) <= enrolledAt) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await codeField.fill(totp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');

    const user = await (await api(operatorKey, {}, `/api/users/${userId}`)).json();
    expect(user.lastLogin).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(user.settings.twoFactorAuth).toBe(true);
    const me = await page.evaluate(async () => (await fetch('/api/trpc/twoFactor.status')).json());
    expect(JSON.stringify(me)).toContain('"enabled":true');
    await page.context().close();
  });

  it('keeps a refused code in its field, the refusal beside it, turning on and turning off', async () => {
    const kept = { email: 'e2e-2fa-kept@example.test', password: 'e2e-2fa-kept-password' };
    const created = await api(operatorKey, {
      method: 'POST',
      body: JSON.stringify({ name: 'Kept Code', ...kept }),
    });
    expect(created.status).toBe(201);
    const page = await newPage();
    await page.goto('/sign-in?callbackUrl=/dashboard/security');
    await signIn(page, kept.email, kept.password);
    await page.waitForURL((url) => url.pathname === '/dashboard/security');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    // The code of an hour ago: never valid now.
    const stale = totp(secret, Math.floor(Date.now() / 30_000) - 120);
    const code = page.getByLabel('Code from your app');
    const wrong = page.getByText('Enter the current 6-digit code from your app.', { exact: true });
    const refusedKept = async () => {
      await wrong.waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await description(code)).toBe('Enter the current 6-digit code from your app.');
      expect(await code.inputValue()).toBe(stale);
      // Typing again answers the refusal: its error goes.
      await code.fill('1');
      await wrong.waitFor({ state: 'detached' });
      expect(await code.getAttribute('aria-invalid')).toBeNull();
    };
    await code.fill(stale);
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await refusedKept();
    await confirmEnrollment(page, secret);
    // Turning off asks for a current code too.
    await code.fill(stale);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await refusedKept();
    expect(await page.getByTestId('two-factor-status').textContent()).toContain('On');
    await page.context().close();
  });

  it('is turned off by an admin for a user who lost their authenticator, behind a confirmation', async () => {
    const page = await newPage();
    await page.goto('/sign-in?callbackUrl=/dashboard/users');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === '/dashboard/users');
    // A user without two-factor is offered no reset.
    await page.goto(`/dashboard/users?q=${encodeURIComponent(ADMIN.email)}`);
    await page.getByRole('cell', { name: ADMIN.email }).waitFor();
    expect(await page.getByRole('button', { name: /^Turn off two-factor for / }).count()).toBe(0);
    await page.goto(`/dashboard/users?q=${encodeURIComponent(USER.email)}`);
    await page.getByRole('button', { name: 'Turn off two-factor for Two Factor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn off two-factor for Two Factor?' });
    await dialog.getByRole('button', { name: 'Turn off two-factor' }).click();
    await page
      .getByRole('status')
      .getByText(
        'Two Factor signs in with their password alone until they turn two-factor on again.',
      )
      .waitFor();
    const user = await (await api(operatorKey, {}, `/api/users/${userId}`)).json();
    expect(user.settings.twoFactorAuth).toBe(false);
    await page.context().close();
    // Their password alone signs them in now.
    const theirs = await newPage();
    await theirs.goto('/sign-in?callbackUrl=/dashboard');
    await signIn(theirs, USER.email, USER.password);
    await theirs.waitForURL((url) => url.pathname === '/dashboard');
    await theirs.context().close();
  });
});
