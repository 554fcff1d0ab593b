/**
 * A post's page after publishing, in Chromium against `npm start` (the publishing engine runs
 * in-process) with a Mastodon stand-in connected: a target the network refused shows the
 * network's words and is retried from the page until it links to the published status; an
 * unconfirmed target is resolved through its dialog; axe at 1280 and 375 px.
 */
import { mastodonFaults, type MastodonStandIn } from '@chorus/stand-ins';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { axeAtBothWidths, launchChromium, signedIn } from './browser';
import { cliApiKey } from './cli';
import { connectMastodon, disconnect, makeUnconfirmed } from './publishing-fixtures';
import { ADMIN } from './server';

const base = inject('base');
let browser: Browser;
let key = '';
let standIn: MastodonStandIn;
let channel = { id: '', name: '' };

type Target = { status: string; url: string | null; error: { message: string } | null };
const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);
const postOf = async (id: string) =>
  (await api('GET', `/api/content/posts/${id}`)).json.data as {
    status: string;
    targets: Target[];
  };

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-publishing',
    'read,write,content:read,content:write',
  );
  ({ standIn, channel } = await connectMastodon(key));
  browser = await launchChromium();
});
afterAll(async () => {
  if (key) await disconnect(key, 'mastodon');
  await browser?.close();
  await standIn?.close();
});

/** A post published to the channel, which the network refuses once: its id, once it failed. */
async function refusedOnce(title: string, content: string) {
  standIn.faults.inject(mastodonFaults.rejected('Validation failed: Text is not allowed'), {
    method: 'POST',
    path: '/api/v1/statuses',
  });
  const created = await api('POST', '/api/content/posts', {
    title,
    content,
    status: 'published',
    targets: [{ channelId: channel.id }],
  });
  expect(created.status).toBe(201);
  const id = created.json.data.id as string;
  await expect.poll(async () => (await postOf(id)).status, { timeout: 60_000 }).toBe('failed');
  return id;
}

describe('a post’s page after publishing', () => {
  it('shows the network’s refusal and retries the failed channel until it links to the post', async () => {
    const id = await refusedOnce(
      'Publishing e2e: refused once',
      `Refused once, then sent ${Date.now()}.`,
    );

    const page = await signedIn(browser, base, ADMIN);
    await page.goto(`/dashboard/posts/${id}`);
    const channels = page.getByRole('region', { name: 'Channels' });
    const item = channels.getByRole('listitem', { name: `${channel.name} (Mastodon)` });
    await item.getByText('Failed', { exact: true }).waitFor();
    await item.getByText('Mastodon said: Validation failed: Text is not allowed').waitFor();
    // A failed post stays editable: the user fixes what the network refused, then retries.
    await page
      .getByRole('region', { name: 'Content' })
      .getByRole('textbox', { name: 'Title' })
      .waitFor();
    await axeAtBothWidths(page);

    // The list flags it, and its channel filter finds it.
    await page.goto('/dashboard/posts');
    await page.getByLabel('Channel').selectOption({ label: `${channel.name} (Mastodon)` });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('channelId') === channel.id);
    const row = page.getByRole('row').filter({ hasText: 'Publishing e2e: refused once' });
    await row.getByText(`${channel.name} (Mastodon): failed`).waitFor();
    await axeAtBothWidths(page);
    await row.getByRole('link', { name: 'Publishing e2e: refused once' }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/posts/${id}`);

    await channels.getByRole('button', { name: 'Retry failed channels' }).click();
    await page
      .getByRole('status')
      .getByText('Sending “Publishing e2e: refused once” again')
      .waitFor();
    // The page refreshes itself while the post is publishing.
    const link = item.getByRole('link', { name: 'View on Mastodon' });
    await link.waitFor({ timeout: 60_000 });
    const target = (await postOf(id)).targets[0];
    expect(target?.status).toBe('published');
    expect(await link.getAttribute('href')).toBe(target?.url);
    expect(standIn.published().filter((s) => s.text.includes('Refused once'))).toHaveLength(1);
    await item.getByText('Published', { exact: true }).waitFor();
    // The activity names the channel each step of publishing was about.
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText(`failed to publish to ${channel.name} (Mastodon): `).waitFor();
    await activity.getByText(`published to ${channel.name} (Mastodon)`).waitFor();
    await page.context().close();
  });

  it('Retry failed channels saves what the composer holds first: the network gets the typed text', async () => {
    const stamp = Date.now();
    const title = `Publishing e2e: fixed before retry ${stamp}`;
    const id = await refusedOnce(title, `The refused text ${stamp}.`);

    const page = await signedIn(browser, base, ADMIN);
    await page.goto(`/dashboard/posts/${id}`);
    const channels = page.getByRole('region', { name: 'Channels' });
    await channels.getByRole('button', { name: 'Retry failed channels', exact: true }).waitFor();
    const typed = `The fixed text ${stamp}.`;
    await page.getByRole('region', { name: 'Content' }).getByLabel('Content').fill(typed);
    const retry = channels.getByRole('button', { name: /retry failed channels$/i });
    const name = await retry.textContent();
    await retry.click();
    await page.getByRole('status').getByText(`Sending “${title}” again`).waitFor();
    // The network got what the composer showed, never the text saved before.
    await expect
      .poll(() => standIn.published().map((s) => s.text), { timeout: 60_000 })
      .toContain(typed);
    expect(standIn.published().some((s) => s.text.includes(`The refused text ${stamp}`))).toBe(
      false,
    );
    // With the edit unsaved, the button said it saves it first.
    expect(name).toBe('Save and retry failed channels');
    expect((await api('GET', `/api/content/posts/${id}`)).json.data.content).toBe(typed);
    await page.context().close();
  });

  it('resolves an unconfirmed channel through its dialog', async () => {
    const created = await api('POST', '/api/content/posts', {
      title: 'Publishing e2e: unconfirmed',
      content: `Maybe sent ${Date.now()}.`,
      targets: [{ channelId: channel.id }],
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    await makeUnconfirmed(id);

    const page = await signedIn(browser, base, ADMIN);
    await page.goto(`/dashboard/posts/${id}`);
    const item = page
      .getByRole('region', { name: 'Channels' })
      .getByRole('listitem', { name: `${channel.name} (Mastodon)` });
    await item.getByText('Mastodon never answered').waitFor();
    // Home counts it among the channels needing attention.
    await page.goto('/dashboard');
    const attention = page
      .getByRole('list', { name: 'Summary' })
      .getByRole('listitem')
      .filter({ hasText: /^Channels needing attention/ });
    expect(await attention.textContent()).toMatch(/[1-9]\d* unconfirmed/);
    await attention.getByRole('link').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    await page.goto(`/dashboard/posts/${id}`);
    // Nothing to retry yet: an unconfirmed post may already be out.
    expect(await page.getByRole('button', { name: 'Retry failed channels' }).count()).toBe(0);
    await item.getByRole('button', { name: `Resolve ${channel.name} (Mastodon)` }).click();
    const dialog = page.getByRole('dialog', { name: 'Is the post on Mastodon?' });
    await dialog.waitFor();
    await axeAtBothWidths(page);

    // Confirming without saying what was found is refused beside the choice.
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const choice = dialog.getByRole('group', { name: 'What did you find?' });
    await expect.poll(() => choice.getAttribute('aria-describedby')).toBeTruthy();
    await dialog.getByText('Choose one.').waitFor();
    await dialog.getByLabel('Link to the post (if published)').fill('not a link');
    await dialog.getByRole('radio', { name: 'It is there: published' }).check();
    // The browser's own URL check would stop the form first: the server's refusal is the test.
    await dialog.locator('form').evaluate((form) => form.setAttribute('novalidate', ''));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Must be an absolute http(s) URL.').waitFor();
    const url = `${standIn.url}/@alice/found-it`;
    await dialog.getByRole('radio', { name: 'It is there: published' }).check();
    await dialog.getByLabel('Link to the post (if published)').fill(url);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    const link = item.getByRole('link', { name: 'View on Mastodon' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(url);
    expect(await postOf(id)).toMatchObject({ status: 'published' });
    await page
      .getByRole('region', { name: 'Activity' })
      .getByText(`resolved ${channel.name} (Mastodon) as published`)
      .waitFor();
    await page.context().close();
  });

  it('shows a revoked connection as needing reconnection, and reconnects it', async () => {
    standIn.revoke(standIn.token);
    const created = await api('POST', '/api/content/posts', {
      title: 'Publishing e2e: revoked',
      content: `After the revocation ${Date.now()}.`,
      status: 'published',
      targets: [{ channelId: channel.id }],
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    await expect.poll(async () => (await postOf(id)).status, { timeout: 60_000 }).toBe('failed');

    const page = await signedIn(browser, base, ADMIN);
    await page.goto(`/dashboard/posts/${id}`);
    await page.getByText('The network withdrew our access: reconnect it, then retry.').waitFor();
    // The composer's picker says so too, with the way back.
    await page.goto('/dashboard/posts/new');
    await page
      .getByRole('group', { name: 'Channels' })
      .getByRole('link', { name: 'reconnect it' })
      .waitFor();
    await page.goto('/dashboard/integrations');
    const row = page.getByRole('row').filter({ hasText: channel.name });
    await row.getByText('Needs reconnecting').waitFor();
    await row.getByRole('button', { name: 'Reconnect Mastodon' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reconnect Mastodon' });
    await dialog.waitFor();
    await axeAtBothWidths(page);
    const fresh = standIn.addAccount({ username: 'reconnected', displayName: 'Reconnected' });
    await dialog.getByLabel('Instance URL').fill(standIn.url);
    await dialog.getByLabel('Access token').fill(fresh.token);
    await dialog.getByRole('button', { name: 'Reconnect' }).click();
    await dialog.waitFor({ state: 'detached' });
    const again = page.getByRole('row').filter({ hasText: 'Reconnected' });
    await again.waitFor();
    expect(await again.getByText('Needs reconnecting').count()).toBe(0);
    await page.context().close();
  });

  it('connects Mastodon by signing in on the instance, with no token to paste', async () => {
    await disconnect(key, 'mastodon');
    const signedInAs = standIn.addAccount({ username: 'oauthed', displayName: 'Signed In' });
    standIn.authorizeAs(signedInAs.accountId);
    const page = await signedIn(browser, base, ADMIN);
    await page.goto('/dashboard/integrations');
    await page.getByRole('button', { name: 'Connect Mastodon' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Mastodon' });
    await dialog.getByLabel('Instance URL').fill(standIn.url);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    // Off to the instance's authorize page, which approves at once, and back.
    await page.waitForURL(/\/dashboard\/integrations\?status=connected/);
    await page.getByRole('row').filter({ hasText: 'Signed In' }).waitFor();
    await page.context().close();
  });
});
