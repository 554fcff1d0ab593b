/**
 * The API reference at /docs (issue 24 item 6), in Chromium with scripts off: no serious or
 * critical axe violation at 1280 and 375 px, every operation and webhook event of the live
 * OpenAPI document on the page, nothing scrolling sideways on a phone, a working skip link.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, seriousViolations } from './browser';

const base = inject('base');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * /docs at `width` px. With `script: false` JavaScript is off, as the page needs none (axe
 * itself needs it on: it runs as a script in the page).
 */
async function docsAt(width: number, { script = false } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width, height: 900 },
    javaScriptEnabled: script,
  });
  const page = await context.newPage();
  const answer = await page.goto('/docs');
  expect(answer?.status()).toBe(200);
  return page;
}

describe('/docs', () => {
  for (const width of [1280, 375]) {
    // The whole reference is one long page: axe takes its time on a loaded machine.
    it(
      `has no serious or critical axe violation at ${width} px`,
      { timeout: 400_000 },
      async () => {
        const page = await docsAt(width, { script: true });
        expect(await seriousViolations(page)).toEqual([]);
        // Nothing wider than the screen: long paths, patterns and examples wrap.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await page.context().close();
      },
    );
  }

  it('shows every operation and webhook event of /api/openapi.json, linked from the contents', async () => {
    const doc = (await fetch(`${base}/api/openapi.json`).then((r) => r.json())) as {
      paths: Record<string, Record<string, { operationId: string; summary?: string }>>;
      webhooks: Record<string, Record<string, { operationId: string }>>;
    };
    const expected = [
      ...Object.entries(doc.paths).flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((m) => ({
          id: item[m]?.operationId,
          heading: new RegExp(`^${m.toUpperCase()} ${path.replace(/[{}]/g, '\\$&')}( |$)`),
        })),
      ),
      ...Object.entries(doc.webhooks).map(([event, item]) => ({
        id: item.post?.operationId,
        heading: new RegExp(`^EVENT ${event.replace('.', '\\.')}( |$)`),
      })),
    ];
    expect(expected.length).toBeGreaterThan(40);
    const page = await docsAt(1280);
    const contents = page.getByRole('navigation', { name: 'Contents' });
    for (const { id, heading } of expected) {
      const section = page.locator(`section[id="op-${id}"]`);
      await expect(section.getByRole('heading', { level: 3 }).textContent()).resolves.toMatch(
        heading,
      );
      expect(await contents.locator(`a[href="#op-${id}"]`).count(), id).toBe(1);
    }
    // The page's operations are exactly those: none invented, none twice.
    expect(await page.locator('section.op').count()).toBe(expected.length);
    await page.context().close();
  });

  it('starts with a skip link to the main content, visible when focused', async () => {
    const page = await docsAt(375);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    const box = await skip.boundingBox();
    expect(box && box.y >= 0).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main');
    await page.context().close();
  });
});
