/**
 * The webhooks pages as a person uses them, in Chromium against `npm start`: an admin creates
 * a webhook to a receiver on loopback (its secret shown once), sends a test event and watches
 * the delivery land in the log, retries it, rotates the secret, disables and re-enables the
 * endpoint, deletes it; a refused create or edit keeps the events checked; a `user` reads the
 * same pages without a single control; axe on each.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';
import { callApi } from './api';

const base = inject('base');
const MEMBER = { name: 'Wendy Watcher', email: 'wendy@e2e.test', password: 'wendy-password' };
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.end('thanks from the receiver');
  });
});
let browser: Browser;
let key = '';
let hookUrl = '';
/** The URL of the webhook the refusal test creates: its own, so `hookUrl` stays one row. */
let keptUrl = '';

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/dashboard-hook`;
  keptUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events-kept`;
  key = await cliApiKey(ADMIN.email, 'e2e-dashboard-webhooks', 'read,write');
  const member = await api('POST', '/api/users', { ...MEMBER, role: 'user' });
  expect(member.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  // The next files' events must not queue up for a receiver that is gone.
  for (const hook of (await api('GET', '/api/webhooks?limit=100')).json.data as {
    id: string;
    url: string;
  }[]) {
    if (hook.url === hookUrl || hook.url === keptUrl) {
      await api('DELETE', `/api/webhooks/${hook.id}`);
    }
  }
  await new Promise((resolve) => receiver.close(resolve));
});

/** The delivery log's row of the newest `type` delivery. */
const deliveryRow = (page: Page, type: string) =>
  page
    .getByRole('region', { name: 'Delivery log' })
    .getByRole('row')
    .filter({ hasText: type })
    .first();

/** The values of the event checkboxes checked in `dialog`, in the form's order. */
const checkedEvents = (dialog: Locator) =>
  dialog
    .getByRole('group', { name: 'Events' })
    .locator('input[type="checkbox"][name="events"]:checked')
    .evaluateAll((boxes: HTMLInputElement[]) => boxes.map((box) => box.value));

/** The events the API says the webhook to `url` subscribes to. */
async function eventsOf(url: string) {
  const hooks = (await api('GET', '/api/webhooks?limit=100')).json.data as {
    url: string;
    events: string[];
  }[];
  return hooks.find((hook) => hook.url === url)?.events.toSorted();
}

describe('webhooks, as an admin', () => {
  it('creates a webhook, sees its secret once, and watches a signed test delivery arrive', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    await dialog.getByLabel('URL').fill(hookUrl);
    await dialog.getByLabel('Description (optional)').fill('The test receiver');
    // No event picked: refused beside the events, and what was typed stays.
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog
      .getByRole('group', { name: 'Events' })
      .getByText('Choose at least one event, or "*" for every one.')
      .waitFor();
    expect(await dialog.getByLabel('URL').inputValue()).toBe(hookUrl);
    expect(await dialog.getByLabel('Description (optional)').inputValue()).toBe(
      'The test receiver',
    );
    await dialog.getByRole('checkbox', { name: 'webhook.test' }).check();
    await dialog.getByRole('checkbox', { name: 'post.published' }).check();
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('status').getByText(`Created the webhook to ${hookUrl}.`).waitFor();
    const secret = (await dialog.getByTestId('one-time-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Shown once: nowhere on the page any more, even after a reload.
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: hookUrl });
    await row.getByText('Active').waitFor();
    await row.getByText('post.published, webhook.test').waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    await row.getByRole('link', { name: hookUrl }).click();
    await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
    await page.getByText('No deliveries yet').waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').getByText('Sent a webhook.test event').waitFor();
    // The log refreshes itself until the delivery has landed.
    const delivery = deliveryRow(page, 'webhook.test');
    await delivery.getByText('succeeded').waitFor({ timeout: 30_000 });
    await delivery.getByRole('cell', { name: '200', exact: true }).waitFor();
    await delivery.getByText('thanks from the receiver').waitFor();
    await delivery.getByText('1 attempt', { exact: true }).waitFor();
    expect(received).toHaveLength(1);
    const [request] = received;
    const event = new Webhook(secret).verify(request?.body ?? '', {
      'webhook-id': String(request?.headers['webhook-id']),
      'webhook-timestamp': String(request?.headers['webhook-timestamp']),
      'webhook-signature': String(request?.headers['webhook-signature']),
    }) as { type: string; data: { object: { url: string } } };
    expect(event).toMatchObject({ type: 'webhook.test', data: { object: { url: hookUrl } } });

    await delivery.getByRole('button', { name: /^Retry the webhook\.test delivery/ }).click();
    await page.getByRole('status').getByText('The delivery is due again now.').waitFor();
    await delivery.getByText('2 attempts').waitFor({ timeout: 30_000 });
    expect(received).toHaveLength(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('rotates the secret (the new one shown once, and used), disables and re-enables, deletes', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/webhooks');
    await page.getByRole('link', { name: hookUrl }).click();
    await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('status').getByText('Rotated the signing secret.').waitFor();
    const secret = (await rotate.getByTestId('one-time-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await rotate.getByRole('button', { name: 'Done' }).click();
    await rotate.waitFor({ state: 'detached' });
    expect(await page.getByText(secret).count()).toBe(0);
    const before = received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').getByText('Sent a webhook.test event').waitFor();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(before + 1);
    const request = received.at(-1);
    // Signed with the new secret (beside the previous one, for 24 hours).
    expect(() =>
      new Webhook(secret).verify(request?.body ?? '', {
        'webhook-id': String(request?.headers['webhook-id']),
        'webhook-timestamp': String(request?.headers['webhook-timestamp']),
        'webhook-signature': String(request?.headers['webhook-signature']),
      }),
    ).not.toThrow();

    await page.getByRole('button', { name: `Edit the webhook to ${hookUrl}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook' });
    // What the endpoint subscribes to is what the form starts from.
    expect(await edit.getByRole('checkbox', { name: 'post.published' }).isChecked()).toBe(true);
    expect(await edit.getByRole('checkbox', { name: 'post.created' }).isChecked()).toBe(false);
    await edit.getByRole('checkbox', { name: 'Active' }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText(`Saved the webhook to ${hookUrl}.`).waitFor();
    await page.getByText('Disabled', { exact: true }).waitFor();
    await page.getByText('by an admin').waitFor();
    // A switched-off endpoint is sent nothing: no test event, no retry to offer.
    expect(await page.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Retry the / }).count()).toBe(0);
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByRole('status').getByText(`Re-enabled the webhook to ${hookUrl}.`).waitFor();
    await page.getByText('Active', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).waitFor();
    expect(await page.getByRole('button', { name: /^Retry the / }).count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Delete this webhook' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete webhook' })
      .click();
    await page.waitForURL((url) => url.pathname === '/dashboard/webhooks');
    await page.getByRole('status').getByText(`Deleted the webhook to ${hookUrl}.`).waitFor();
    // Other files' webhooks may share the list: this one's row is gone.
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByRole('link', { name: hookUrl }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('keeps the checked events when the server refuses the URL, and forgets the refusal once closed', async () => {
    // Credentials in the URL: the browser's url check lets them through, and the server refuses
    // them whatever the deployment allows (private targets are allowed here).
    const withCredentials = keptUrl.replace('http://', 'http://chorus:secret@');
    const refusal = 'The URL must not carry credentials.';
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    await dialog.getByLabel('URL').fill(withCredentials);
    await dialog.getByRole('checkbox', { name: 'post.scheduled' }).check();
    await dialog.getByRole('checkbox', { name: 'integration.disconnected' }).check();
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText(refusal).waitFor();
    expect(await dialog.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('URL').inputValue()).toBe(withCredentials);
    // Exactly the boxes checked before the refusal: none lost, none added.
    expect(await checkedEvents(dialog)).toEqual(['post.scheduled', 'integration.disconnected']);
    await dialog.getByLabel('URL').fill(keptUrl);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('status').getByText(`Created the webhook to ${keptUrl}.`).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await eventsOf(keptUrl)).toEqual(['integration.disconnected', 'post.scheduled']);

    await page.getByRole('button', { name: `Edit the webhook to ${keptUrl}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook' });
    expect(await checkedEvents(edit)).toEqual(['post.scheduled', 'integration.disconnected']);
    await edit.getByRole('checkbox', { name: 'post.scheduled' }).uncheck();
    await edit.getByRole('checkbox', { name: 'webhook.test' }).check();
    await edit.getByLabel('URL').fill(withCredentials);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(refusal).waitFor();
    expect(await edit.getByLabel('URL').inputValue()).toBe(withCredentials);
    // The set as changed, not the webhook's saved one.
    expect(await checkedEvents(edit)).toEqual(['integration.disconnected', 'webhook.test']);
    // Closed and opened again, the dialog forgets the refused attempt: saved values, no error.
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Edit the webhook to ${keptUrl}` }).click();
    expect(await edit.getByLabel('URL').inputValue()).toBe(keptUrl);
    expect(await edit.getByLabel('URL').getAttribute('aria-invalid')).not.toBe('true');
    expect(await edit.getByText(refusal).count()).toBe(0);
    expect(await checkedEvents(edit)).toEqual(['post.scheduled', 'integration.disconnected']);
    await edit.getByRole('checkbox', { name: 'post.scheduled' }).uncheck();
    await edit.getByRole('checkbox', { name: 'webhook.test' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText(`Saved the webhook to ${keptUrl}.`).waitFor();
    await edit.waitFor({ state: 'detached' });
    expect(await eventsOf(keptUrl)).toEqual(['integration.disconnected', 'webhook.test']);
    await page.context().close();

    const hook = (await api('GET', '/api/webhooks?limit=100')).json.data.find(
      (found: { url: string }) => found.url === keptUrl,
    ) as { id: string };
    expect((await api('DELETE', `/api/webhooks/${hook.id}`)).status).toBe(204);
  });
});

describe('webhooks, as a user', () => {
  it('reads the list and the log, with no control to change anything', async () => {
    const created = await api('POST', '/api/webhooks', {
      url: hookUrl,
      events: ['*'],
      description: 'Made by an admin',
    });
    expect(created.status).toBe(201);
    const test = await api('POST', `/api/webhooks/${created.json.data.id}/test`);
    expect(test.status).toBe(201);

    const page = await signedIn(browser, base, MEMBER);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByText('Only admins can add or change them.').waitFor();
    const row = page.getByRole('row').filter({ hasText: hookUrl });
    await row.getByText('Every event').waitFor();
    expect(await page.getByRole('button', { name: 'Create webhook' }).count()).toBe(0);
    expect(await row.getByRole('button').count()).toBe(0);

    await row.getByRole('link', { name: hookUrl }).click();
    await deliveryRow(page, 'webhook.test').getByText('succeeded').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('accessibility', () => {
  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedIn(browser, base, ADMIN, { width });
    await page.goto('/dashboard/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('dialog', { name: 'Create a webhook' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: hookUrl }).first().click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
