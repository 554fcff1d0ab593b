/**
 * Issue 20 item 1 and the tRPC half of the JSON depth rule: a batch is capped and each of its
 * calls spends the budget; deep JSON is a 400 on both doors. Through a real socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxBatchFromEnv } from '../src';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { serveOnLoopback } from './http-server';
import { awayFromWindowEdge, testRateLimiter } from './rate-limiter';

let h: Harness;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
beforeAll(async () => {
  h = await startHarness();
  const rateLimiter = testRateLimiter({ free: { read: 5, write: 1e6 } });
  server = await serveOnLoopback(
    createTrpcHandler({ getDatabase: async () => h.database, rateLimiter, maxBatchSize: 4 }),
  );
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

/** A GET batch of `n` users.list calls. */
function listBatch(n: number, token: string) {
  const paths = Array.from({ length: n }, () => 'users.list').join(',');
  const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]));
  const query = `batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  return fetch(`${server.base}/api/trpc/${paths}?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

type TrpcError = { error: { data: { error: { code: string; message: string } } } };

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('tRPC batches', () => {
  it('refuses a batch over the cap with 400 in the envelope, before running any call', async () => {
    const { token } = await h.newAccount('Big batch', 'admin@big-batch.test');
    const res = await listBatch(5, token);
    expect(res.status).toBe(400);
    const body = (await res.json()) as TrpcError;
    expect(body.error.data.error.code).toBe('validation_error');
    expect(body.error.data.error.message).toMatch(/at most 4 calls; this one holds 5/);
    // Nothing counted: the whole budget is left.
    expect((await listBatch(1, token)).headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts every call of a batch against the budget: a batch of N costs N', async () => {
    const { token } = await h.newAccount('Batch budget', 'admin@batch-budget.test');
    await awayFromWindowEdge();
    const first = await listBatch(3, token);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    // 3 more do not fit in the 2 left: refused as a whole.
    const second = await listBatch(3, token);
    expect(second.status).toBe(429);
    // A batch answers one result per call: each says why.
    const results = (await second.json()) as TrpcError[];
    expect(results).toHaveLength(3);
    for (const result of results) expect(result.error.data.error.code).toBe('rate_limit_exceeded');
  });

  it('reads its cap from CHORUS_TRPC_MAX_BATCH (20 by default), refusing a bad value', () => {
    expect(maxBatchFromEnv({})).toBe(20);
    expect(maxBatchFromEnv({ CHORUS_TRPC_MAX_BATCH: '50' })).toBe(50);
    expect(() => maxBatchFromEnv({ CHORUS_TRPC_MAX_BATCH: 'lots' })).toThrow(
      /CHORUS_TRPC_MAX_BATCH/,
    );
    expect(() => maxBatchFromEnv({ CHORUS_TRPC_MAX_BATCH: '0' })).toThrow(/CHORUS_TRPC_MAX_BATCH/);
  });
});

describe('JSON depth on the tRPC door', () => {
  it('answers 400 invalid_json to 5,000 levels in a body and in a query input', async () => {
    const posted = await fetch(`${server.base}/api/trpc/users.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'application/json' },
      body: `{"name":"x","a":${deep(5000)}}`,
    });
    expect(posted.status).toBe(400);
    const body = (await posted.json()) as TrpcError;
    expect(body.error.data.error.code).toBe('invalid_json');
    expect(body.error.data.error.message).toMatch(/deeper than 64 levels/);

    // Brackets travel raw in a query string (as curl -g sends them): 5,000 levels fit in a URL.
    const input = `${encodeURIComponent('{"q":')}${deep(5000)}}`;
    const queried = await fetch(`${server.base}/api/trpc/users.list?input=${input}`, {
      headers: { authorization: `Bearer ${h.main.token}` },
    });
    expect(queried.status).toBe(400);
    expect(((await queried.json()) as TrpcError).error.data.error.code).toBe('invalid_json');
  });

  it('lets 64 levels through to the procedure, and brackets inside strings do not count', async () => {
    const nested = `{"events":[{"type":"view","properties":{"a":${deep(60)},"s":"${'['.repeat(500)}"}}]}`;
    const res = await fetch(`${server.base}/api/trpc/analytics.record`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'application/json' },
      body: nested,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

describe('JSON depth on the REST door', () => {
  it('answers 400 invalid_json naming the limit, at 65 levels as at 5,000', async () => {
    for (const depth of [65, 3_000, 5_000]) {
      const { status, json } = await h.call('POST', '/api/users', {
        raw: `{"name":"x","email":"deep@x.test","a":${deep(depth - 1)}}`,
      });
      expect(status).toBe(400);
      expect(json.error.code).toBe('invalid_json');
      expect(json.error.message).toMatch(/deeper than 64 levels/);
    }
  });
});
