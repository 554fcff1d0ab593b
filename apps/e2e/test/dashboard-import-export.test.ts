/**
 * Import and export as a person uses them, in Chromium against `npm start`: a CSV of 20 posts
 * with one bad date is previewed and refused with that row's number, then imported once
 * fixed; the Export button downloads them back; one post is said in the singular; a member's
 * scheduled row, while posts need approval, is refused in the dashboard's words; axe at 1280
 * and 375 px with the dialog open.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
// Every file shares one server and account: titles unique to this run.
const run = Date.now().toString(36);
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** 20 rows, the 7th scheduled at `bad` when given. */
function csv(bad?: string) {
  // A month out: the files share one account, and the home page lists its next five posts.
  const at = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const rows = Array.from({ length: 20 }, (_, i) => {
    const when = i === 6 && bad ? bad : i % 2 ? at : '';
    return `Imported ${run} ${i + 1},Body ${i + 1},e2e,${when}`;
  });
  return Buffer.from(`title,content,tags,scheduledAt\n${rows.join('\n')}\n`);
}

async function openImport(page: Page) {
  await page.goto('/dashboard/posts');
  await page.getByRole('heading', { name: 'Posts', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Import' }).click();
  return page.getByRole('dialog', { name: 'Import posts' });
}

describe('import and export', () => {
  it('refuses a bad date with its row, imports the fixed file, and exports it back', async () => {
    const page = await signedIn(browser, base, ADMIN);
    const dialog = await openImport(page);
    const file = dialog.getByLabel('File');
    await file.setInputFiles({
      name: 'posts.csv',
      mimeType: 'text/csv',
      buffer: csv('31/12/2026'),
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const issues = dialog.getByRole('group', { name: 'Issues' });
    await issues.waitFor();
    await issues.getByRole('cell', { name: '7 (line 8)' }).waitFor();
    await issues.getByRole('cell', { name: 'scheduledAt' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);

    await file.setInputFiles({ name: 'posts.csv', mimeType: 'text/csv', buffer: csv() });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('20 posts are ready to import.').waitFor();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').getByText('Imported 20 posts.').waitFor();
    await page.getByRole('link', { name: `Imported ${run} 20` }).waitFor();

    await page.getByLabel('Search').fill(`Imported ${run}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === `Imported ${run}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const text = await readFile((await download.path()) ?? '', 'utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/^title,content,tags,scheduledAt,/);
    expect(lines).toHaveLength(21);
    expect(text).toContain(`Imported ${run} 7,Body 7,e2e,`);
    await page.context().close();
  });

  it('says one post in the singular', async () => {
    const page = await signedIn(browser, base, ADMIN);
    const dialog = await openImport(page);
    await dialog.getByLabel('File').setInputFiles({
      name: 'one.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`title,content\nImported ${run} alone,Just one\n`),
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('1 post is ready to import.', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').getByText('Imported 1 post.', { exact: true }).waitFor();
    await page.context().close();
  });

  it('refuses a member’s scheduled row while posts need approval, in the dashboard’s words', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-import-approval', 'read,write');
    const member = { name: 'Ivo Import', email: 'ivo-import@e2e.test', password: 'ivo-password' };
    const created = await callApi(key, 'POST', '/api/users', { ...member, role: 'user' });
    expect([201, 400]).toContain(created.status);
    expect(
      (await callApi(key, 'PUT', '/api/account/settings', { requireApproval: true })).status,
    ).toBe(200);
    try {
      const page = await signedIn(browser, base, member);
      const dialog = await openImport(page);
      const at = new Date(Date.now() + 30 * 86_400_000).toISOString();
      await dialog.getByLabel('File').setInputFiles({
        name: 'member.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`title,content,scheduledAt\nImported ${run} by a member,Hi,${at}\n`),
      });
      await dialog.getByRole('button', { name: 'Preview' }).click();
      const issues = dialog.getByRole('group', { name: 'Issues' });
      const issue = issues.getByRole('cell', { name: /requires approval/ });
      await issue.waitFor();
      expect(await issue.textContent()).toBe(
        'This account requires approval: submit the post for approval and an admin schedules or publishes it.',
      );
      await page.context().close();
    } finally {
      await callApi(key, 'PUT', '/api/account/settings', { requireApproval: false });
    }
  });

  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedIn(browser, base, ADMIN, { width });
    const dialog = await openImport(page);
    await dialog.getByLabel('File').setInputFiles({
      name: 'posts.csv',
      mimeType: 'text/csv',
      buffer: csv('nope'),
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('group', { name: 'Issues' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
