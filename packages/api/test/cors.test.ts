/**
 * CORS through the app's own listener and server: preflights answered before authentication,
 * answers readable by allowed origins only, the OAuth endpoints (served by the web app) too.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiListener, createHttpServer } from '../src/server';
import { createRateLimiter, memoryStore, type RateLimiter } from '../src/rate-limit';
import { corsOriginsFromEnv, type CorsOrigins } from '../src/server/cors';
import { startHarness, type Harness } from './harness';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

let h: Harness;
const servers: ReturnType<typeof createHttpServer>[] = [];

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await h?.close();
});

/** The app's listener with these origins; the web app answers with a Vary of its own. */
async function serve(corsOrigins: CorsOrigins, rateLimiter?: RateLimiter) {
  const server = createHttpServer();
  server.on(
    'request',
    createApiListener({
      mounts: [['/api', rateLimiter ? h.handlerWith(rateLimiter) : h.handle]],
      webPaths: ['/api/auth'],
      web: (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', vary: 'Accept' })
          .end('{"web":true}'),
      corsOrigins,
      rateLimiter,
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const preflight = (base: string, path: string, origin: string, headers = 'authorization') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': headers,
    },
  });

describe('CORS', () => {
  it('answers an allowed preflight with 204 before authentication, a refused one with 403', async () => {
    const base = await serve(new Set([ALLOWED]));
    for (const path of ['/api/users', '/api/content/posts', '/oauth/token', '/oauth/revoke']) {
      const res = await preflight(
        base,
        path,
        ALLOWED,
        'authorization, content-type, idempotency-key',
      );
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const allowHeaders = res.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
      for (const name of ['authorization', 'content-type', 'idempotency-key'])
        expect(allowHeaders).toContain(name);
      expect(res.headers.get('access-control-max-age')).toMatch(/^\d+$/);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/^Origin, Access-Control-Request-Method/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const refused = await preflight(base, '/api/users', OTHER);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toBe('Origin');
    expect((await refused.json()).error.code).toBe('forbidden');
  });

  it("carries API-Version and the address's budget on a preflight, which spends none of it", async () => {
    const limiter = createRateLimiter({ store: memoryStore(), limits: { anonymous: 7 } });
    const base = await serve(new Set([ALLOWED]), limiter);
    for (const origin of [ALLOWED, ALLOWED, OTHER, OTHER]) {
      // Read before asking: the window may end while the answer travels.
      const asked = Date.now() / 1000;
      const res = await preflight(base, '/api/users', origin);
      expect(res.status).toBe(origin === ALLOWED ? 204 : 403);
      expect(res.headers.get('api-version')).toBe('1');
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('7');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(asked);
    }
    // A request without credentials counts on that same budget, as the preflights did not.
    const counted = await fetch(`${base}/api/users`, { headers: { origin: ALLOWED } });
    expect(counted.status).toBe(401);
    expect(counted.headers.get('x-ratelimit-remaining')).toBe('6');
  });

  it('answers a plain OPTIONS from an allowed origin without credentials: 204, Allow, readable', async () => {
    const base = await serve(new Set([ALLOWED]));
    for (const [path, allow] of [
      ['/api/users', 'GET, POST, HEAD, OPTIONS'],
      ['/api/content/posts/post_1', 'GET, PUT, DELETE, HEAD, OPTIONS'],
    ]) {
      const res = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ALLOWED },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('allow'), path).toBe(allow);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-expose-headers')).toContain('Allow');
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    }
    const unknown = await fetch(`${base}/api/nothing`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, authorization: `Bearer ${h.main.token}` },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('refuses a preflight to introspection from every origin: confidential clients only', async () => {
    for (const origins of [new Set([ALLOWED]), corsOriginsFromEnv({ CHORUS_CORS_ORIGINS: '*' })]) {
      const base = await serve(origins);
      const res = await preflight(base, '/oauth/introspect', ALLOWED);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('api-version')).toBe('1');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect((await res.json()).error).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('confidential clients'),
      });
      // Nor may a page read its answer.
      const call = await fetch(`${base}/oauth/introspect`, {
        method: 'POST',
        headers: { origin: ALLOWED },
      });
      expect(call.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('lets an allowed origin read an answer and its headers, and no other origin', async () => {
    const base = await serve(new Set([ALLOWED]));
    const read = (origin?: string) =>
      fetch(`${base}/api/users`, {
        headers: { authorization: `Bearer ${h.main.token}`, ...(origin && { origin }) },
      });
    const allowed = await read(ALLOWED);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const exposed = allowed.headers.get('access-control-expose-headers') ?? '';
    for (const name of [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
      'Location',
    ])
      expect(exposed).toContain(name);
    expect(allowed.headers.get('vary')).toContain('Origin');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();

    const other = await read(OTHER);
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-expose-headers')).toBeNull();
    expect(other.headers.get('vary')).toContain('Origin');

    // Errors too: a page must be able to read why it was refused.
    const unauthenticated = await fetch(`${base}/api/users`, { headers: { origin: ALLOWED } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it("covers the web app's OAuth endpoints, keeping their own Vary, but not its pages or next-auth", async () => {
    const base = await serve(new Set([ALLOWED]));
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { origin: ALLOWED },
    });
    expect(token.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(token.headers.get('vary')).toBe('Origin, Accept');
    for (const path of ['/dashboard', '/api/auth/session', '/oauth/authorize']) {
      const page = await fetch(`${base}${path}`, { headers: { origin: ALLOWED } });
      expect(page.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(page.headers.get('vary'), path).toBe('Accept');
      // Not a CORS path: the preflight goes on to the web app as any OPTIONS does.
      expect(
        (await preflight(base, path, ALLOWED)).headers.get('access-control-allow-origin'),
      ).toBeNull();
    }
  });

  it('allows no origin by default, and any with `*` (never with credentials)', async () => {
    const none = await serve(corsOriginsFromEnv({}));
    const refused = await preflight(none, '/api/users', ALLOWED);
    expect(refused.status).toBe(403);
    const plain = await fetch(`${none}/api/users`, { headers: { origin: ALLOWED } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    // Nothing depends on Origin, so nothing says it does.
    expect(plain.headers.get('vary')).not.toContain('Origin');

    const any = await serve(corsOriginsFromEnv({ CHORUS_CORS_ORIGINS: '*' }));
    const res = await preflight(any, '/api/users', OTHER);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('reads CHORUS_CORS_ORIGINS strictly', () => {
    expect(
      corsOriginsFromEnv({
        CHORUS_CORS_ORIGINS: ' https://App.example.com/ , http://localhost:5173',
      }),
    ).toEqual(new Set(['https://app.example.com', 'http://localhost:5173']));
    expect(corsOriginsFromEnv({ CHORUS_CORS_ORIGINS: '' })).toEqual(new Set());
    for (const bad of [
      '*, https://a.example',
      'https://a.example/app',
      'a.example',
      'ftp://a.example',
      'https://u:p@a.example',
    ]) {
      expect(() => corsOriginsFromEnv({ CHORUS_CORS_ORIGINS: bad }), bad).toThrow(
        /^CHORUS_CORS_ORIGINS: /,
      );
    }
  });
});
