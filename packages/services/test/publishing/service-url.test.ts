import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instanceApp } from '../../src/integrations/mastodon-app';
import { discoverNetworkChannels } from '../../src/publishing/discover';
import { providerContext } from '../../src/publishing/engine/settings';
import { bluesky } from '../../src/publishing/providers/bluesky';
import { mastodonProvider } from '../../src/publishing/providers/mastodon';
import { guardedFetch } from '../../src/webhooks/guarded-fetch';
import { TargetRefused } from '../../src/webhooks/targets';
import { fakeDns } from '../fake-dns';
import { failure, publishRequest } from './harness';

/**
 * A connection's own server is checked as each connection resolves it (docs/publishing.md,
 * Channels): a name that resolves to a public address when checked and to a private one
 * when connected to (DNS rebinding) is refused, here with a DNS that answers so.
 */

const dns = {
  /** How many more look-ups of `*.rebind.test` answer a public address before loopback. */
  publicAnswers: 0,
  lookups: 0,
};

/** A name whose DNS answer (public) takes this long. */
const SLOW = { host: 'api.slow.test', ms: 2_000 };

/** The process's DNS, answering `*.rebind.test` as above, and `SLOW.host` slowly. */
const rebindingDns = () =>
  fakeDns((hostname) => {
    if (hostname === SLOW.host) return { address: '93.184.216.34', delayMs: SLOW.ms };
    if (!hostname.endsWith('.rebind.test')) return undefined;
    dns.lookups += 1;
    return { address: dns.publicAnswers-- > 0 ? '93.184.216.34' : '127.0.0.1' };
  });

let restoreDns: () => void;
beforeAll(() => {
  restoreDns = rebindingDns();
});
afterAll(() => restoreDns());

const REBIND = 'https://api.rebind.test';

beforeEach(() => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
  dns.publicAnswers = 0;
  dns.lookups = 0;
});

describe('guardedFetch', () => {
  it('refuses an address that turned private between the check and the connection', async () => {
    dns.publicAnswers = 1;
    const error = await failure(guardedFetch(`${REBIND}/x`, {}, false));
    expect(error).toBeInstanceOf(TargetRefused);
    // One look-up for the check, one by the connection itself.
    expect(dns.lookups).toBe(2);
  });

  it('refuses a private address before connecting, and http unless private targets are allowed', async () => {
    expect(await failure(guardedFetch(`${REBIND}/x`, {}, false))).toBeInstanceOf(TargetRefused);
    expect(dns.lookups).toBe(1);
    const http = await failure(guardedFetch('http://127.0.0.1:9/x', {}, false));
    expect(http).toBeInstanceOf(TargetRefused);
  });

  it('gives up when its signal aborts, its check of the address (DNS) included', async () => {
    const started = performance.now();
    const signal = AbortSignal.timeout(200);
    const error = await failure(guardedFetch(`https://${SLOW.host}/x`, { signal }, false));
    expect(performance.now() - started).toBeLessThan(SLOW.ms / 2);
    expect(error).toBe(signal.reason);
  });

  describe('with private targets allowed, against a loopback server', () => {
    let server: Server;
    let base: string;
    const seen: { method: string; headers: IncomingMessage['headers']; body: string }[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          seen.push({
            method: req.method ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks).toString(),
          });
          if (req.url === '/empty') return void res.writeHead(204).end();
          if (req.url === '/moved') {
            return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
          }
          res.writeHead(201, { 'content-type': 'application/json', 'x-two': ['a', 'b'] });
          res.end(JSON.stringify({ ok: true }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends the body, its type and length, and answers as fetch would', async () => {
      const res = await guardedFetch(
        `${base}/json`,
        { method: 'POST', headers: { authorization: 'Bearer t' }, body: '{"a":1}' },
        true,
      );
      expect(res.status).toBe(201);
      expect(res.headers.get('x-two')).toBe('a, b');
      expect(await res.json()).toEqual({ ok: true });
      expect(seen.at(-1)).toMatchObject({
        method: 'POST',
        body: '{"a":1}',
        headers: { authorization: 'Bearer t', 'content-length': '7' },
      });
      const form = await guardedFetch(
        `${base}/form`,
        { method: 'POST', body: new URLSearchParams({ code: 'c d' }) },
        true,
      );
      expect(form.status).toBe(201);
      expect(seen.at(-1)?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(seen.at(-1)?.body).toBe('code=c+d');
    });

    it('streams a body, answers a 204 without one, and never follows a redirect', async () => {
      const stream = new Blob(['streamed bytes']).stream();
      const res = await guardedFetch(
        `${base}/upload`,
        { method: 'POST', body: stream, duplex: 'half', headers: { 'content-length': '14' } },
        true,
      );
      expect(res.status).toBe(201);
      expect(seen.at(-1)?.body).toBe('streamed bytes');
      expect((await guardedFetch(`${base}/empty`, {}, true)).status).toBe(204);
      const moved = await guardedFetch(`${base}/moved`, { redirect: 'manual' }, true);
      expect(moved.status).toBe(302);
      expect(seen.at(-1)?.method).toBe('GET');
    });
  });
});

describe('a connection’s own server, resolving publicly at connect and privately after', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('is guarded where a user chose it, and only there', () => {
    const env = { CHORUS_INTEGRATION_BLUESKY_API_URL: 'http://127.0.0.1:2583' };
    const own = { accessToken: 't', extra: { serviceUrl: REBIND } };
    expect(providerContext('mastodon', own, env)).toMatchObject({ guarded: true });
    expect(providerContext('bluesky', own, env)).toMatchObject({ guarded: true });
    // A Bluesky session keeps the operator's API as its serviceUrl: still the operator's.
    const session = { accessToken: 't', extra: { serviceUrl: 'http://127.0.0.1:2583/' } };
    expect(providerContext('bluesky', session, env).guarded).toBeUndefined();
    expect(providerContext('bluesky', { accessToken: 't' }, env).guarded).toBeUndefined();
    expect(providerContext('x', { accessToken: 't' }, env).guarded).toBeUndefined();
  });

  it('refuses the connect after the check passed (400 naming serviceUrl)', async () => {
    dns.publicAnswers = 1;
    const error = await failure(
      discoverNetworkChannels('mastodon', { accessToken: 't', extra: { serviceUrl: REBIND } }),
    );
    expect(error).toMatchObject({
      code: 'validation_error',
      details: { issues: [{ path: 'serviceUrl', message: expect.any(String) }] },
    });
    expect(dns.lookups).toBeGreaterThan(1);
  });

  it('refuses to register Chorus on the instance (400 naming serviceUrl)', async () => {
    dns.publicAnswers = 1;
    const error = await failure(
      instanceApp(database.db, REBIND, 'https://chorus.example/api/integrations/callback/mastodon'),
    );
    expect(error).toMatchObject({
      code: 'validation_error',
      details: { issues: [{ path: 'serviceUrl', message: expect.any(String) }] },
    });
  });

  it('classifies a refused publish as address_refused on Mastodon and Bluesky', async () => {
    const channel = {
      externalId: '1',
      handle: '@alice@rebind.test',
      credentials: { accessToken: 'secret', refreshToken: 'r', extra: { did: 'did:plc:alice' } },
    };
    const context = {
      ...providerContext('mastodon', { ...channel.credentials, extra: { serviceUrl: REBIND } }),
    };
    for (const provider of [mastodonProvider, bluesky]) {
      dns.publicAnswers = 1;
      const { request } = publishRequest({ channel, parts: [{ text: 'Hello' }] });
      const error = await failure(provider.publish(request, context));
      expect(provider.classify(error), provider.name).toMatchObject({
        class: 'address_refused',
        message: expect.stringContaining('CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      });
    }
  });
});
