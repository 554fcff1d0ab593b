/**
 * A browser app on another origin calls the API with a bearer token: Chromium sends the
 * preflight and enforces the answer, as it would for any single-page app. The suite's server
 * allows `http://localhost:<corsPort>` (CHORUS_CORS_ORIGINS), and nothing else.
 */
import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');
const corsPort = inject('corsPort');
let browser: Browser;
let key: string;

// The other origin's app: an empty page, from which the test runs its script.
const app = createServer((_req, res) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end('<!doctype html><html lang="en"><title>Another app</title><h1>Another app</h1></html>'),
);

beforeAll(async () => {
  await new Promise<void>((resolve) => app.listen(corsPort, '127.0.0.1', resolve));
  key = await cliApiKey(ADMIN.email, 'e2e-cors', 'read,content:write');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  app.closeAllConnections();
  await new Promise((resolve) => app.close(resolve));
});

/** A page of the other app, served from `origin`. */
async function pageOn(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

describe('the API from a page on another origin', () => {
  it('lists users and reads the headers it needs with a bearer token, when the origin is allowed', async () => {
    const page = await pageOn(`http://localhost:${corsPort}`);
    const answer = await page.evaluate(
      async ({ base, key }) => {
        const res = await fetch(`${base}/api/users?limit=100`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        const body = (await res.json()) as { data: { email: string }[] };
        return {
          status: res.status,
          emails: body.data.map((user) => user.email),
          requestId: res.headers.get('X-Request-Id'),
          remaining: res.headers.get('X-RateLimit-Remaining'),
        };
      },
      { base, key },
    );
    expect(answer.status).toBe(200);
    expect(answer.emails).toContain(ADMIN.email);
    expect(answer.requestId).toBeTruthy();
    expect(answer.remaining).toMatch(/^\d+$/);

    // A JSON write needs a preflight (its content type and Authorization): an invalid one
    // is refused by the API, and the page can read why.
    const refused = await page.evaluate(
      async ({ base, key }) => {
        const res = await fetch(`${base}/api/content/posts`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': crypto.randomUUID(),
          },
          body: JSON.stringify({ content: 42 }),
        });
        return {
          status: res.status,
          code: ((await res.json()) as { error: { code: string } }).error.code,
        };
      },
      { base, key },
    );
    expect(refused).toEqual({ status: 400, code: 'validation_error' });
    await page.close();
  });

  it('is blocked by the browser for an origin that is not allowed', async () => {
    // The same app on another origin (127.0.0.1 is not localhost, to a browser).
    const page = await pageOn(`http://127.0.0.1:${corsPort}`);
    const failure = await page.evaluate(
      async ({ base, key }) =>
        fetch(`${base}/api/users`, { headers: { Authorization: `Bearer ${key}` } }).then(
          () => 'read',
          (error: unknown) => (error instanceof TypeError ? 'blocked' : String(error)),
        ),
      { base, key },
    );
    expect(failure).toBe('blocked');
    await page.close();
  });
});
