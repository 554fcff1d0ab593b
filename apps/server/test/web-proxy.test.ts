/**
 * The app's listener in front of a stand-in for Next on a Unix socket, as src/serve.ts
 * wires them: what reaches Next (headers, bodies, how many sign-ins) through real sockets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRateLimiter, memoryStore, principalBucket, type RateLimiter } from '@chorus/api';
import type { Principal } from '@chorus/auth';
import { createApiListener, createHttpServer } from '@chorus/api/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_BODY_LIMIT, WEB_BODY_LIMIT, webProxy } from '../src/web-proxy';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}

const ADA: Principal = {
  accountId: 'acct_test',
  userId: 'usr_ada',
  role: 'admin',
  tier: 'free',
  credential: { kind: 'session', id: 'sid_ada' },
  scopes: [],
};

let dir: string;
let next: Server;
let front: Server;
let port: number;
let limiter: RateLimiter;
const seen: Seen[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chorus-proxy-'));
  const socket = join(dir, 'next.sock');
  // Next's stand-in reads every body whole (as Next does a form) and says what it got.
  next = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('next');
    });
  });
  await new Promise<void>((resolve) => next.listen(socket, resolve));
  limiter = createRateLimiter({
    store: memoryStore(),
    limits: { anonymous: 3, free: { read: 100, write: 2 } },
  });
  front = createHttpServer();
  front.on(
    'request',
    createApiListener({
      mounts: [],
      webPaths: ['/api/auth'],
      web: webProxy(socket, {
        rateLimiter: limiter,
        // The session of the tests: a cookie that says so (the real one decodes next-auth's).
        sessionPrincipal: async (req) => (req.headers.get('cookie') === 'session=ada' ? ADA : null),
      }),
    }),
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  port = (front.address() as AddressInfo).port;
});
afterAll(async () => {
  front?.closeAllConnections();
  await new Promise((resolve) => front?.close(resolve));
  next?.closeAllConnections();
  await new Promise((resolve) => next?.close(resolve));
  await limiter?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => void seen.splice(0));

/** Sends raw request bytes on a fresh connection and reads the whole answer. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(raw);
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request whose body is written in `chunks` of `chunkBytes` (chunked unless `length` is
 * declared); resolves with the answer, whatever happens to the rest of the upload.
 */
function send(
  method: string,
  path: string,
  opts: { length?: number; chunks?: number; chunkBytes?: number; cookie?: string } = {},
): Promise<Answer> {
  const { chunks = 0, chunkBytes = 16 * 1024 } = opts;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.length !== undefined) headers['content-length'] = opts.length;
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    // Refused mid-upload, the client's writes fail: the answer is what counts.
    req.on('error', (error) => setTimeout(() => reject(error), 2000));
    let sent = 0;
    const pump = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(Buffer.alloc(chunkBytes, 'a'))) return void req.once('drain', pump);
      }
      if (opts.length === undefined) req.end();
    };
    pump();
  });
}

const envelope = (text: string) =>
  JSON.parse(text) as { success: boolean; error: { code: string; status: number } };

describe('X-Forwarded-For through the web proxy', () => {
  it('reaches Next as the listener stamped it, even when Connection names it', async () => {
    const answer = await exchange(
      'GET /sign-in HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 203.0.113.9\r\n' +
        'Connection: keep-alive, X-Forwarded-For\r\n\r\n' +
        // A second request on the same connection, naming it in Connection without a value.
        'GET /dashboard HTTP/1.1\r\nHost: localhost\r\nConnection: close, x-forwarded-for\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(seen.map((s) => [s.url, s.headers['x-forwarded-for']])).toEqual([
      ['/sign-in', '203.0.113.9, 127.0.0.1'],
      ['/dashboard', '127.0.0.1'],
    ]);
  });

  it('still drops the other hop-by-hop headers and those Connection names', async () => {
    await exchange(
      'GET /x HTTP/1.1\r\nHost: localhost\r\nX-Private: 1\r\nKeep-Alive: timeout=5\r\n' +
        'Connection: close, X-Private\r\n\r\n',
    );
    expect(seen[0]?.headers['x-private']).toBeUndefined();
    expect(seen[0]?.headers['keep-alive']).toBeUndefined();
  });
});

describe('bodies forwarded to Next', () => {
  it('refuses a declared length over 64 KiB on /api/auth with 413 in the envelope, reading none of it', async () => {
    const answer = await send('POST', '/api/auth/callback/credentials', {
      length: 200 * 1024 * 1024,
      chunks: 4,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(envelope(answer.text)).toMatchObject({
      success: false,
      error: { code: 'payload_too_large', status: 413 },
    });
    expect(seen).toEqual([]);
  });

  it('refuses a chunked body once it passes 64 KiB on /api/auth: Next never gets it whole', async () => {
    const answer = await send('POST', '/api/auth/signin/credentials', { chunks: 64 });
    expect(answer.status).toBe(413);
    expect(envelope(answer.text).error.code).toBe('payload_too_large');
    // Next's request was dropped unfinished: it never saw the end of a body.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([]);
  });

  it('forwards a body within the limit, and takes up to 1 MiB elsewhere', async () => {
    const small = await send('POST', '/api/auth/signout', {
      length: AUTH_BODY_LIMIT,
      chunks: AUTH_BODY_LIMIT / 1024,
      chunkBytes: 1024,
    });
    expect(small.status).toBe(200);
    const action = await send('POST', '/dashboard/posts', { chunks: 32, chunkBytes: 32 * 1024 });
    expect(action.status).toBe(200);
    expect(seen.map((s) => s.bytes)).toEqual([AUTH_BODY_LIMIT, WEB_BODY_LIMIT]);
    const over = await send('POST', '/dashboard/posts', { length: WEB_BODY_LIMIT + 1, chunks: 1 });
    expect(over.status).toBe(413);
    const overChunked = await send('POST', '/dashboard/posts', { chunks: 65 });
    expect(overChunked.status).toBe(413);
  });
});

describe('sign-in attempts', () => {
  it('are counted per address: past the budget, 429 in the envelope before Next or argon2', async () => {
    const attempts: Answer[] = [];
    for (let i = 0; i < 4; i++)
      attempts.push(
        await send('POST', '/api/auth/callback/credentials', { chunks: 1, chunkBytes: 100 }),
      );
    expect(attempts.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(attempts.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    const refused = attempts[3] as Answer;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(envelope(refused.text)).toMatchObject({
      success: false,
      error: { code: 'rate_limit_exceeded', status: 429 },
    });
    expect(seen).toHaveLength(3);
    // The rest of next-auth, and the pages, are not counted here.
    expect((await send('GET', '/api/auth/csrf')).status).toBe(200);
    expect((await send('GET', '/sign-in')).status).toBe(200);
  });
});

describe('server actions', () => {
  it("spend the session's write budget, the one the tRPC door spends, and are refused past it", async () => {
    const budget = principalBucket(ADA, 'POST', limiter.limits);
    const remaining = async () => (await limiter.peek(budget)).remaining;
    expect(await remaining()).toBe(2);
    const action = () =>
      send('POST', '/dashboard/posts', { cookie: 'session=ada', chunks: 1, chunkBytes: 10 });
    const first = await action();
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect(await remaining()).toBe(1);
    // Spent elsewhere (a tRPC mutation of the same session), it is gone for the actions too.
    await limiter.check(budget);
    const refused = await action();
    expect(refused.status).toBe(429);
    expect(envelope(refused.text).error.code).toBe('rate_limit_exceeded');
    expect(seen).toHaveLength(1);
    // Pages are read, not counted here; OAuth endpoints have throttles of their own.
    expect((await send('GET', '/dashboard', { cookie: 'session=ada' })).status).toBe(200);
    expect((await send('POST', '/oauth/token', { chunks: 1, chunkBytes: 10 })).status).toBe(200);
  });

  it('count against the address without a session', async () => {
    const anonymous = await send('POST', '/dashboard/users', { chunks: 1, chunkBytes: 10 });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['x-ratelimit-limit']).toBe('3');
  });
});

describe('a web server that cannot be reached', () => {
  it('is answered 502 in words, and logged with the reason', async () => {
    const gone = createHttpServer();
    gone.on(
      'request',
      createApiListener({
        mounts: [],
        webPaths: [],
        web: webProxy(join(dir, 'no-such.sock'), {
          rateLimiter: limiter,
          sessionPrincipal: async () => null,
        }),
      }),
    );
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('LOG_LEVEL', 'warn');
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const answer = await fetch(
        `http://127.0.0.1:${(gone.address() as AddressInfo).port}/dashboard`,
      );
      expect(answer.status).toBe(502);
      expect(await answer.text()).toBe('The web server is unavailable.');
      const lines = logged.mock.calls.map(
        ([line]) => JSON.parse(String(line)) as Record<string, unknown>,
      );
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'web server unreachable',
          path: '/dashboard',
          code: 'ENOENT',
        }),
      );
    } finally {
      logged.mockRestore();
      vi.unstubAllEnvs();
      await new Promise((resolve) => gone.close(resolve));
    }
  });
});
