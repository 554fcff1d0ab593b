import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { awayFromWindowEdge, testRateLimiter } from './rate-limiter';

let h: Harness;
let handle: (req: Request) => Promise<Response>;
beforeAll(async () => {
  h = await startHarness();
  const rateLimiter = testRateLimiter({ free: { read: 2, write: 1 }, anonymous: 1 });
  handle = createTrpcHandler({ getDatabase: async () => h.database, rateLimiter });
});
afterAll(() => h?.close());

const list = (token: string | null, headers: Record<string, string> = {}) =>
  handle(
    new Request(`http://localhost/api/trpc/users.list?input=${encodeURIComponent('{}')}`, {
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
    }),
  );

describe('the tRPC door', () => {
  it('counts every request against the credential’s budget, like REST, and refuses over it', async () => {
    const { token } = await h.newAccount('Budget', 'budget@trpc.test');
    await awayFromWindowEdge();
    const first = await list(token);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await list(token)).status).toBe(200);
    const refused = await list(token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { data: { error: { code: string } } } };
    expect(body.error.data.error.code).toBe('rate_limit_exceeded');
  });

  it('counts unauthenticated requests per client address', async () => {
    const from = { 'x-forwarded-for': '203.0.113.77' };
    await awayFromWindowEdge();
    expect((await list(null, from)).status).toBe(401);
    expect((await list(null, from)).status).toBe(429);
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const { token } = await h.newAccount('Ids', 'ids@trpc.test');
    const echoed = await list(token, { 'x-request-id': 'caller-id-123' });
    expect(echoed.headers.get('x-request-id')).toBe('caller-id-123');
    const made = await list(token, { 'x-request-id': '<script>' });
    expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(made.headers.get('api-version')).toBe('1');
  });
});

describe('a reserved key on the tRPC door', () => {
  it('is refused as on REST: in a call, a batch, an escaped spelling and a query input', async () => {
    const { token } = await h.newAccount('Reserved', 'reserved@trpc.test');
    const generous = createTrpcHandler({ getDatabase: async () => h.database });
    const send = (path: string, body?: string) =>
      generous(
        new Request(`http://localhost/api/trpc/${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body !== undefined && { body }),
        }),
      );
    const input = encodeURIComponent('{"q":"x","__proto__":{"a":1}}');
    for (const res of [
      await send('account.updateSettings', '{"__proto__":{"requireApproval":true}}'),
      await send(
        'account.updateSettings?batch=1',
        '{"0":{"constructor":{"prototype":{"requireApproval":true}}}}',
      ),
      // An escaped spelling is the same key once parsed.
      await send('account.updateSettings', '{"\\u005f_proto__":{"a":1}}'),
      await send(`posts.list?input=${input}`),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('This key name is reserved.');
    }
  });
});
