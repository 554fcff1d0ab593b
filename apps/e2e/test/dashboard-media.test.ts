/**
 * The media library as a person uses it, in Chromium against `npm start`: an admin uploads
 * PNGs by the file picker and by drag-and-drop (a progress bar per file, then thumbnails),
 * sees the API refuse a file that is no accepted type whatever its name, edits alt text (and
 * sees the server refuse an over-long one beside the field), deletes an item attached to a
 * post after confirming; a `user` gets the controls the API lets every member use, and sees a
 * change to the alt text of an item an approved post sends refused beside the field; axe at
 * 1280 and 375 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, seriousViolations, signedIn } from './browser';
import { cliApiKey } from './cli';
import { png } from './png';
import { ADMIN } from './server';
import { callApi } from './api';

const base = inject('base');
const MEMBER = { name: 'Mia Media', email: 'mia-media@e2e.test', password: 'mia-password' };
// Every file shares one server and account: names unique to this run.
const run = Date.now().toString(36);
const PICKED = { name: `picked-${run}.png`, bytes: png(32, 24, [200, 40, 40]) };
const DROPPED = [
  { name: `dropped-a-${run}.png`, bytes: png(20, 10, [40, 160, 60]) },
  { name: `dropped-b-${run}.png`, bytes: png(12, 12, [30, 60, 200]) },
];
// The smallest file `file-type` takes for a PDF: the header and the end marker.
const PDF = {
  name: `brief-${run}.pdf`,
  bytes: Buffer.from('%PDF-1.4\n%\xe2\xe3\n%%EOF\n', 'latin1'),
};
let browser: Browser;
let key = '';

type MediaRecord = {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  altText: string | null;
};

const api = (method: string, path: string, body?: unknown, token = key) =>
  callApi(token, method, path, body);

/** The account's media record named `filename`, or undefined. */
async function mediaNamed(filename: string): Promise<MediaRecord | undefined> {
  const list = await api('GET', '/api/content/media?limit=100');
  expect(list.status).toBe(200);
  return (list.json.data as MediaRecord[]).find((item) => item.filename === filename);
}

const library = (page: Page) => page.getByRole('list', { name: 'Media' });
const card = (page: Page, filename: string) =>
  library(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: filename }) });
const uploadRow = (page: Page, filename: string) =>
  page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: filename });

/** Whether the card's thumbnail loaded: its bytes came through the session-authorised route. */
async function thumbnailWidth(page: Page, filename: string) {
  const img = card(page, filename).locator('img');
  // Thumbnails load lazily: in view first.
  await img.scrollIntoViewIfNeeded();
  return img.evaluate((element: HTMLImageElement) =>
    element.decode().then(() => element.naturalWidth),
  );
}

async function openMedia(page: Page) {
  await page.goto('/dashboard/media');
  await page.getByRole('heading', { name: 'Media', level: 1 }).waitFor();
}

beforeAll(async () => {
  key = await cliApiKey(
    ADMIN.email,
    'e2e-dashboard-media',
    'read,write,content:read,content:write',
  );
  const member = await api('POST', '/api/users', { ...MEMBER, role: 'user' });
  expect(member.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('media, as an admin', () => {
  it('uploads by the file picker: a progress bar named by the file, then its thumbnail', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Media' })
      .click();
    await page.getByRole('heading', { name: 'Media', level: 1 }).waitFor();

    // Held until the bar has been seen: a small file would otherwise finish at once.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/content/media', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Choose files').setInputFiles({
      name: PICKED.name,
      mimeType: 'image/png',
      buffer: PICKED.bytes,
    });
    const bar = page.getByRole('progressbar', { name: PICKED.name });
    await bar.waitFor();
    await uploadRow(page, PICKED.name)
      .getByText(/Starting…|\d+%/)
      .waitFor();
    release();
    await page.getByRole('status').getByText(`Uploaded ${PICKED.name}.`).waitFor();
    await page.unrouteAll();
    await uploadRow(page, PICKED.name).getByText('Uploaded', { exact: true }).waitFor();
    expect(await bar.getAttribute('value')).toBe('100');

    // The grid shows it without a reload: the page's state (the upload list) is still there.
    await card(page, PICKED.name).getByText('PNG image').waitFor();
    expect(await thumbnailWidth(page, PICKED.name)).toBe(32);
    await card(page, PICKED.name).getByText('No alt text').waitFor();
    expect(await uploadRow(page, PICKED.name).count()).toBe(1);

    const record = await mediaNamed(PICKED.name);
    expect(record).toMatchObject({
      mimeType: 'image/png',
      size: PICKED.bytes.length,
      width: 32,
      height: 24,
      altText: null,
    });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('uploads several files dropped on the drop zone at once; a PDF gets an icon', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await openMedia(page);
    const transfer = await page.evaluateHandle(
      (files) => {
        const data = new DataTransfer();
        for (const file of files) {
          const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
          data.items.add(new File([bytes], file.name));
        }
        return data;
      },
      [...DROPPED, PDF].map((file) => ({
        name: file.name,
        base64: file.bytes.toString('base64'),
      })),
    );
    await page
      .getByRole('group', { name: 'Drop files here to upload them' })
      .dispatchEvent('drop', { dataTransfer: transfer });
    for (const file of DROPPED) {
      await page.getByRole('progressbar', { name: file.name }).waitFor();
      await page.getByRole('status').getByText(`Uploaded ${file.name}.`).waitFor();
      await card(page, file.name).getByText('PNG image').waitFor();
      const record = await mediaNamed(file.name);
      expect(record).toMatchObject({ mimeType: 'image/png', size: file.bytes.length });
    }
    expect(await thumbnailWidth(page, DROPPED[1]?.name ?? '')).toBe(12);
    await page.getByRole('status').getByText(`Uploaded ${PDF.name}.`).waitFor();
    await card(page, PDF.name).getByText('PDF document').waitFor();
    expect(await card(page, PDF.name).locator('img').count()).toBe(0);
    expect(await mediaNamed(PDF.name)).toMatchObject({
      mimeType: 'application/pdf',
      size: PDF.bytes.length,
      width: null,
    });
    await page.context().close();
  });

  it('shows the API’s refusal for each file that is no accepted type, whatever its name', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await openMedia(page);
    const notes = `notes-${run}.txt`;
    const disguised = `disguised-${run}.png`;
    // The picker's filter is only a hint: a page script (or a drop) can send anything.
    await page.getByLabel('Choose files').setInputFiles([
      { name: notes, mimeType: 'text/plain', buffer: Buffer.from('just some notes\n') },
      { name: disguised, mimeType: 'image/png', buffer: Buffer.from('not a picture at all\n') },
    ]);
    const refusal =
      "The file's content is of no recognised type; JPEG, PNG, GIF, WebP, MP4 and PDF are accepted.";
    for (const name of [notes, disguised]) {
      await uploadRow(page, name).getByText(refusal).waitFor();
      expect(await mediaNamed(name)).toBeUndefined();
    }
    await page.getByRole('status').getByText(`${notes}: ${refusal}`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear finished uploads' }).click();
    await page.getByRole('list', { name: 'Uploads' }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('edits the alt text, which becomes the thumbnail’s alt; the server refuses one too long', async () => {
    const page = await signedIn(browser, base, ADMIN);
    await openMedia(page);
    const alt = 'A red rectangle on a plain background';
    await page.getByRole('button', { name: `Edit alt text of ${PICKED.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the alt text' });
    await dialog.getByText(PICKED.name).waitFor();

    // The field's maxlength is the browser's help; without it, the API still says no.
    const field = dialog.getByLabel('Alt text');
    await field.evaluate((input: HTMLInputElement) => input.removeAttribute('maxlength'));
    await field.fill('x'.repeat(1001));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/1000 characters/).waitFor();
    expect(await dialog.getByLabel('Alt text').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Alt text').inputValue()).toHaveLength(1001);

    await dialog.getByLabel('Alt text').fill(alt);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText(`Saved the alt text of ${PICKED.name}.`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card(page, PICKED.name).getByRole('img', { name: alt }).waitFor();
    await card(page, PICKED.name).getByText(`Alt text: ${alt}`).waitFor();
    expect((await mediaNamed(PICKED.name))?.altText).toBe(alt);
    await page.context().close();
  });

  it('deletes an item attached to a post after confirming: gone from the grid and the API, still named by the post', async () => {
    const [target] = DROPPED;
    const record = await mediaNamed(target?.name ?? '');
    expect(record).toBeDefined();
    const post = await api('POST', '/api/content/posts', {
      title: `Uses ${target?.name}`,
      mediaIds: [record?.id],
    });
    expect(post.status).toBe(201);

    const page = await signedIn(browser, base, ADMIN);
    await openMedia(page);
    await page.getByRole('button', { name: `Delete ${target?.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${target?.name}?` });
    await confirm
      .getByText('Posts that use it keep naming it and are not sent until it is taken out of them')
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await api('GET', `/api/content/media/${record?.id}`)).status).toBe(200);

    await page.getByRole('button', { name: `Delete ${target?.name}` }).click();
    await confirm.getByRole('button', { name: 'Delete file' }).click();
    await page.getByRole('status').getByText(`Deleted ${target?.name}.`).waitFor();
    await card(page, target?.name ?? '').waitFor({ state: 'detached' });
    expect((await api('GET', `/api/content/media/${record?.id}`)).status).toBe(404);
    // The post keeps naming it, so it is never sent without it (docs/media.md, Deleting); its
    // page says so, and saving it there takes the medium out.
    const postId = post.json.data.id;
    const after = await api('GET', `/api/content/posts/${postId}`);
    expect(after.json.data.mediaIds).toEqual([record?.id]);
    await page.goto(`/dashboard/posts/${postId}`);
    await page.getByRole('alert').getByText(`deleted from the library (${record?.id})`).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText(`Saved “Uses ${target?.name}”.`).waitFor();
    const saved = await api('GET', `/api/content/posts/${postId}`);
    expect(saved.json.data.mediaIds).toEqual([]);
    await page.context().close();
  });
});

describe('media, as a user', () => {
  it('has the controls the API gives every member (content:write, no role), and they work', async () => {
    const page = await signedIn(browser, base, MEMBER);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Media' }).click();
    await page.getByRole('heading', { name: 'Media', level: 1 }).waitFor();
    // Admin pages stay out of reach.
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    // The account's library, the admin's uploads included.
    await card(page, PICKED.name).waitFor();
    await page.getByLabel('Choose files').waitFor({ state: 'attached' });
    const target = DROPPED[1]?.name ?? '';
    await page.getByRole('button', { name: `Delete ${target}` }).waitFor();
    await page.getByRole('button', { name: `Edit alt text of ${target}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the alt text' });
    await dialog.getByLabel('Alt text').fill('A blue square');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText(`Saved the alt text of ${target}.`).waitFor();
    await card(page, target).getByRole('img', { name: 'A blue square' }).waitFor();
    await page.context().close();
  });

  it('sees the alt text of an item an approved post sends refused beside the field, while approval is on', async () => {
    const record = await mediaNamed(PICKED.name);
    const before = record?.altText;
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const post = await api('POST', '/api/content/posts', {
      title: `Sends ${PICKED.name}`,
      status: 'scheduled',
      scheduledAt,
      mediaIds: [record?.id],
    });
    expect(post.status).toBe(201);
    expect((await api('PUT', '/api/account/settings', { requireApproval: true })).status).toBe(200);
    try {
      const page = await signedIn(browser, base, MEMBER);
      await openMedia(page);
      await page.getByRole('button', { name: `Edit alt text of ${PICKED.name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the alt text' });
      await dialog.getByLabel('Alt text').fill('Not what the admin approved');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText(/requires approval/).waitFor();
      const field = dialog.getByLabel('Alt text');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.inputValue()).toBe('Not what the admin approved');
      expect(await dialog.getByRole('alert').count()).toBe(0);
      expect((await mediaNamed(PICKED.name))?.altText).toBe(before);
      await page.context().close();
    } finally {
      // Other files share the account and the library: approval off, the post gone.
      await api('PUT', '/api/account/settings', { requireApproval: false });
      await api('DELETE', `/api/content/posts/${post.json.data.id}`);
    }
  });
});

describe('accessibility', () => {
  it.each([1280, 375])('axe finds no serious or critical violation at %i px', async (width) => {
    const page = await signedIn(browser, base, ADMIN, { width });
    await openMedia(page);
    await card(page, PICKED.name).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: `Edit alt text of ${PICKED.name}` }).click();
    await page.getByRole('dialog', { name: 'Edit the alt text' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Delete ${PICKED.name}` }).click();
    await page.getByRole('dialog', { name: `Delete ${PICKED.name}?` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
