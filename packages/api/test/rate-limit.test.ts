import { users } from '@chorus/db';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createRateLimiter,
  redisStore,
  WINDOW_MS,
  type RateLimitsOverride,
} from '../src/rate-limit';
import { createRestHandler } from '../src/rest';
import { startHarness, type Harness } from './harness';
import { testPrefix, testRateLimiter, testStore } from './rate-limiter';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

// Each test runs at one frozen instant, early in a window: a window starting mid-test would
// forget part of the count (the sliding window rounds down), so exact counts need a still clock.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime((Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS + 1_000);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A handler over the harness's database with small limits, and a fresh account using it. */
async function door(limits: RateLimitsOverride, tier?: 'free' | 'pro' | 'enterprise') {
  const handler = h.handlerWith(testRateLimiter(limits));
  const n = Math.random().toString(36).slice(2, 8);
  const account = await h.newAccount(`Acct ${n}`, `admin-${n}@example.test`, tier);
  const call = (method: string, path: string, options: Parameters<Harness['call']>[2] = {}) =>
    h.call(method, path, { token: account.token, handler, ...options });
  return { handler, account, call };
}

const limitOf = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-limit'));
const remainingOf = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

function expectRateHeaders(res: { headers: Headers }, limit: number, remaining: number) {
  expect(limitOf(res)).toBe(limit);
  expect(remainingOf(res)).toBe(remaining);
  // Epoch seconds: within the next window, not milliseconds.
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
}

const newUser = (n: number | string) => ({
  name: `User ${n}`,
  email: `user-${n}-${Math.random().toString(36).slice(2, 8)}@example.test`,
  password: 'correct horse battery',
});

describe('rate-limit headers on every response', () => {
  it('on success, on 4xx and on 405/404 routes, counting down the same budget', async () => {
    const { call } = await door({ free: { read: 10 } });
    expectRateHeaders(await call('GET', '/api/users'), 10, 9);
    const missing = await call('GET', '/api/users/usr_missing');
    expect(missing.status).toBe(404);
    expectRateHeaders(missing, 10, 8);
    const noRoute = await call('GET', '/api/nothing-here');
    expect(noRoute.status).toBe(404);
    expectRateHeaders(noRoute, 10, 7);
    const head = await call('HEAD', '/api/users');
    expect(head.status).toBe(200);
    expectRateHeaders(head, 10, 6);
  });

  it('on a 400 write, from the write budget', async () => {
    const { call } = await door({ free: { write: 5 } });
    const invalid = await call('POST', '/api/users', { body: { name: '' } });
    expect(invalid.status).toBe(400);
    expectRateHeaders(invalid, 5, 4);
  });

  it('on 401s, per client IP', async () => {
    const { call } = await door({ anonymous: 3 });
    const ip = { 'x-forwarded-for': '198.51.100.7, 10.0.0.1' };
    const none = await call('GET', '/api/users', { token: null, headers: ip });
    expect(none.status).toBe(401);
    expectRateHeaders(none, 3, 2);
    const bad = await call('GET', '/api/users', { token: 'csk_test_nope', headers: ip });
    expect(bad.status).toBe(401);
    expectRateHeaders(bad, 3, 1);
  });

  it('on a 503 answered before anything could be counted', async () => {
    const rateLimiter = testRateLimiter({ anonymous: 5 });
    const down = createRestHandler({
      getDatabase: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      rateLimiter,
    });
    try {
      const res = await h.call('GET', '/api/users', { handler: down });
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe('service_unavailable');
      // The budget of the caller's address, reported and not counted.
      expectRateHeaders(res, 5, 5);
    } finally {
      await rateLimiter.close();
    }
  });

  it('on the public paths, health included', async () => {
    const { call } = await door({ anonymous: 3 });
    const ip = { 'x-real-ip': '198.51.100.8' };
    const doc = await call('GET', '/api/openapi.json', { token: null, headers: ip });
    expect(doc.status).toBe(200);
    expectRateHeaders(doc, 3, 2);
    const health = await call('GET', '/api/health', { token: null, headers: ip });
    expect(health.status).toBe(200);
    // Health is reported, not counted.
    expectRateHeaders(health, 3, 2);
  });
});

describe('over the limit', () => {
  it('answers 429 rate_limit_exceeded with Retry-After once the budget is spent', async () => {
    const { call } = await door({ free: { read: 3 } });
    for (const left of [2, 1, 0]) expectRateHeaders(await call('GET', '/api/users'), 3, left);
    const refused = await call('GET', '/api/users');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({
      success: false,
      error: { code: 'rate_limit_exceeded', status: 429 },
    });
    expectRateHeaders(refused, 3, 0);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
  });

  it('does no work: a POST /api/users over the write budget creates nobody', async () => {
    const { call, account } = await door({ free: { write: 2 } });
    expect((await call('POST', '/api/users', { body: newUser(1) })).status).toBe(201);
    expect((await call('POST', '/api/users', { body: newUser(2) })).status).toBe(201);
    const extra = newUser(3);
    const refused = await call('POST', '/api/users', { body: extra });
    expect(refused.status).toBe(429);
    const list = await call('GET', '/api/users');
    expect(list.json.pagination.total).toBe(3); // the admin and two users
    const rows = await h.db.select().from(users);
    expect(rows.some((row) => row.email === extra.email)).toBe(false);
    expect(rows.filter((row) => row.accountId === account.accountId)).toHaveLength(3);
  });

  it('refuses unauthenticated callers per IP, and leaves other addresses alone', async () => {
    const { call } = await door({ anonymous: 2 });
    const from = (ip: string) => ({ token: null, headers: { 'x-forwarded-for': ip } });
    expect((await call('GET', '/api/users', from('203.0.113.1'))).status).toBe(401);
    expect((await call('GET', '/api/users', from('203.0.113.1'))).status).toBe(401);
    const refused = await call('GET', '/api/users', from('203.0.113.1'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await call('GET', '/api/users', from('203.0.113.2'))).status).toBe(401);
    // Probes are never refused, even from a spent address.
    const health = await call('GET', '/api/health', from('203.0.113.1'));
    expect(health.status).toBe(200);
    expectRateHeaders(health, 2, 0);
  });
});

describe('budgets', () => {
  it('counts reads and writes apart', async () => {
    const { call } = await door({ free: { read: 3, write: 1 } });
    const created = await call('POST', '/api/users', { body: newUser('rw') });
    expect(created.status).toBe(201);
    expectRateHeaders(created, 1, 0);
    expectRateHeaders(await call('GET', '/api/users'), 3, 2);
    expect((await call('POST', '/api/users', { body: newUser('rw2') })).status).toBe(429);
    const read = await call('GET', '/api/users');
    expect(read.status).toBe(200);
    expectRateHeaders(read, 3, 1);
    // PUT and DELETE are writes too.
    expect((await call('DELETE', '/api/users/usr_missing')).status).toBe(429);
  });

  it('follows the account tier', async () => {
    const limits = { free: { read: 2 }, pro: { read: 4 }, enterprise: { read: 6 } };
    for (const [tier, figure] of [
      ['free', 2],
      ['pro', 4],
      ['enterprise', 6],
    ] as const) {
      const { call } = await door(limits, tier);
      for (let left = figure - 1; left >= 0; left--) {
        expectRateHeaders(await call('GET', '/api/users'), figure, left);
      }
      expect((await call('GET', '/api/users')).status).toBe(429);
    }
  });

  it('defaults to the table of docs/rate-limits-and-idempotency.md', async () => {
    const expected = {
      free: [600, 120],
      pro: [3000, 600],
      enterprise: [12000, 2400],
    } as const;
    for (const [tier, [reads, writes]] of Object.entries(expected)) {
      const { call } = await door({}, tier as keyof typeof expected);
      expect(limitOf(await call('GET', '/api/users'))).toBe(reads);
      expect(limitOf(await call('POST', '/api/users', { body: {} }))).toBe(writes);
    }
    const { call } = await door({});
    expect(limitOf(await call('GET', '/api/users', { token: null }))).toBe(60);
  });

  it('shares one budget between the API keys of an account, not between accounts', async () => {
    const { call, account } = await door({ free: { read: 4 } });
    const { secret: second } = await h.keyFor(account.adminId);
    expectRateHeaders(await call('GET', '/api/users'), 4, 3);
    expectRateHeaders(await call('GET', '/api/users', { token: second }), 4, 2);
    expectRateHeaders(await call('GET', '/api/users'), 4, 1);
    const other = await h.newAccount('Other', `other-${Date.now()}@example.test`);
    expectRateHeaders(await call('GET', '/api/users', { token: other.token }), 4, 3);
  });
});

describe('several handlers', () => {
  it('share the budget when they share a limiter (the process default does)', async () => {
    const limiter = testRateLimiter({ free: { read: 3 } });
    const first = h.handlerWith(limiter);
    const second = h.handlerWith(limiter);
    expectRateHeaders(await h.call('GET', '/api/users', { handler: first }), 3, 2);
    expectRateHeaders(await h.call('GET', '/api/users', { handler: second }), 3, 1);
    expectRateHeaders(await h.call('GET', '/api/users', { handler: first }), 3, 0);
    expect((await h.call('GET', '/api/users', { handler: second })).status).toBe(429);
  });

  it.skipIf(!process.env.REDIS_URL)(
    'share one budget across instances through Redis (needs REDIS_URL: no shared store without it)',
    async () => {
      const prefix = testPrefix();
      // Two limiters with their own connections, as two server processes would have.
      const first = h.handlerWith(testRateLimiter({ free: { read: 3 } }, testStore(prefix)));
      const second = h.handlerWith(testRateLimiter({ free: { read: 3 } }, testStore(prefix)));
      expectRateHeaders(await h.call('GET', '/api/users', { handler: first }), 3, 2);
      expectRateHeaders(await h.call('GET', '/api/users', { handler: second }), 3, 1);
      expectRateHeaders(await h.call('GET', '/api/users', { handler: first }), 3, 0);
      expect((await h.call('GET', '/api/users', { handler: second })).status).toBe(429);
    },
  );
});

describe('when Redis is unreachable', () => {
  it('serves requests, logs the failure and reports health degraded', async () => {
    // Nothing listens on port 1: every limiter call fails, as with a stopped Redis.
    const limiter = createRateLimiter({
      store: redisStore({ url: 'redis://127.0.0.1:1' }, testPrefix()),
      limits: { free: { read: 2, write: 1 } },
    });
    const handler = h.handlerWith(limiter);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.stubEnv('LOG_LEVEL', 'warn');
    try {
      for (let i = 0; i < 4; i++) {
        const res = await h.call('GET', '/api/users', { handler });
        expect(res.status).toBe(200);
        // Nothing is counted: the headers show the whole budget.
        expectRateHeaders(res, 2, 2);
      }
      const created = await h.call('POST', '/api/users', { handler, body: newUser('open') });
      expect(created.status).toBe(201);
      expect((await h.call('POST', '/api/users', { handler, body: newUser('open2') })).status).toBe(
        201,
      );
      const health = await h.call('GET', '/api/health', { handler, token: null });
      expect(health.status).toBe(200);
      expect(health.json).toMatchObject({
        status: 'degraded',
        checks: { database: { status: 'up' }, redis: { status: 'down' } },
      });
    } finally {
      vi.unstubAllEnvs();
      spy.mockRestore();
    }
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; level: string });
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'rate limiter unavailable: serving requests without counting them',
      }),
    );
  });

  it('health says Redis is up, and reports it only when Redis is in use', async () => {
    const health = await h.call('GET', '/api/health', { token: null });
    expect(health.status).toBe(200);
    // Nothing else down but the job queue, which no worker runs here (door.test.ts).
    const down = Object.entries(health.json.checks as Record<string, { status: string }>)
      .filter(([, check]) => check.status === 'down')
      .map(([name]) => name);
    expect(down).toEqual(['queue', 'worker']);
    if (process.env.REDIS_URL) expect(health.json.checks.redis.status).toBe('up');
    else expect(health.json.checks.redis).toBeUndefined();
  });
});
