import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_TIMEOUT_MS, sendAttempt } from '../src/webhooks/send';
import { fakeDns } from './fake-dns';

/**
 * One webhook attempt (docs/webhooks.md, Delivery and Outcomes), against a loopback receiver:
 * the whole attempt, the target's check and its DNS included, ends within its 10 s, since the
 * claim's lease (CHORUS_WEBHOOK_LEASE_SECONDS, 11 s at least) only outlasts that.
 */

/** Slower than the attempt's timeout: `*.slow.test` answers loopback only after this. */
const SLOW_DNS_MS = ATTEMPT_TIMEOUT_MS + 1_000;
let rebindPublicAnswers = 0;

let server: Server;
let port: number;
const received: { method: string; url: string; body: string }[] = [];
let restoreDns: () => void;

beforeAll(async () => {
  restoreDns = fakeDns((hostname) => {
    if (hostname.endsWith('.slow.test')) return { address: '127.0.0.1', delayMs: SLOW_DNS_MS };
    if (!hostname.endsWith('.rebind.test')) return undefined;
    return { address: rebindPublicAnswers-- > 0 ? '93.184.216.34' : '127.0.0.1' };
  });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      received.push({ method: req.method ?? '', url: req.url ?? '', body });
      if (req.url === '/partial') {
        // A status at once, and a body that never ends.
        res.writeHead(200);
        return void res.write('ok\0 so far');
      }
      if (req.url === '/huge') return void res.writeHead(200).end('a\0'.repeat(100_000));
      if (req.url === '/moved') return void res.writeHead(302, { location: '/hook' }).end();
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  restoreDns();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const attempt = (url: string, allowPrivateTargets = true) =>
  sendAttempt({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{"id":"evt_1"}',
    allowPrivateTargets,
  });
const sentTo = (path: string) => received.filter((r) => r.url === path);

describe('a webhook attempt', () => {
  it.concurrent(
    'whose DNS answers slower than the timeout ends within it as a timeout, sending nothing',
    { timeout: 40_000 },
    async ({ expect }) => {
      const started = performance.now();
      const result = await attempt(`http://hook.slow.test:${port}/slow`);
      const took = performance.now() - started;
      expect(result).toMatchObject({ statusCode: null, responseExcerpt: null, error: 'timeout' });
      expect(result.durationMs).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 100);
      expect(result.durationMs).toBeLessThan(ATTEMPT_TIMEOUT_MS + 500);
      expect(took).toBeLessThan(ATTEMPT_TIMEOUT_MS + 500);
      // Once the DNS has answered, still nothing goes out: the attempt is over.
      await new Promise((resolve) => setTimeout(resolve, SLOW_DNS_MS - took + 500));
      expect(sentTo('/slow')).toEqual([]);
    },
  );

  it.concurrent(
    'counts a status in time while its body is still coming, keeping what came, NULs stripped',
    { timeout: 30_000 },
    async ({ expect }) => {
      const result = await attempt(`http://127.0.0.1:${port}/partial`);
      expect(result).toMatchObject({ statusCode: 200, responseExcerpt: 'ok so far', error: null });
      expect(result.durationMs).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 100);
      expect(result.durationMs).toBeLessThan(ATTEMPT_TIMEOUT_MS + 500);
    },
  );

  it('POSTs the body, keeps the first 1 KiB of the answer without NULs, follows no redirect', async () => {
    const huge = await attempt(`http://127.0.0.1:${port}/huge`);
    expect(huge).toMatchObject({ statusCode: 200, error: null });
    expect(huge.responseExcerpt).toBe('a'.repeat(512));
    expect(sentTo('/huge')).toEqual([{ method: 'POST', url: '/huge', body: '{"id":"evt_1"}' }]);
    const moved = await attempt(`http://127.0.0.1:${port}/moved`);
    expect(moved).toMatchObject({ statusCode: 302, error: null });
    expect(sentTo('/hook')).toEqual([]);
  });

  it('is refused, sending nothing, by the check or by the connection (DNS turned private)', async () => {
    expect(await attempt(`http://127.0.0.1:${port}/hook`, false)).toMatchObject({
      statusCode: null,
      error: 'refused: The URL must be https.',
    });
    rebindPublicAnswers = 1;
    expect(await attempt('https://hook.rebind.test/hook', false)).toMatchObject({
      statusCode: null,
      error: 'refused: resolves to a private address',
    });
    expect(sentTo('/hook')).toEqual([]);
  });
});
