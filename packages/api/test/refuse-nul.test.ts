import { eq, users } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/trpc-door';
import { startHarness, type Harness } from './harness';
import { fixture, upload } from './media-fixtures';
import { testRateLimiter } from './rate-limiter';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const refusedAt = (
  json: { error: { code: string; details: { issues: unknown[] } } },
  path: string,
) => {
  expect(json.error.code).toBe('validation_error');
  expect(json.error.details.issues).toEqual([
    { path, message: 'Must not contain NUL characters.' },
  ]);
};

/** PostgreSQL text and jsonb cannot hold U+0000: every door answers 400, never a 500. */
describe('NUL characters in input', () => {
  it('are refused in a JSON body, naming the field, and nothing is written', async () => {
    const { status, json } = await h.call('POST', '/api/users', {
      body: { name: 'Ada\u0000', email: 'nul@acme.test', password: 'a-long-password' },
    });
    expect(status).toBe(400);
    refusedAt(json, 'name');
    expect(await h.db.select().from(users).where(eq(users.email, 'nul@acme.test'))).toEqual([]);
  });

  it('are refused in a query parameter and in an object key', async () => {
    const query = await h.call('GET', '/api/users?q=a%00b');
    expect(query.status).toBe(400);
    refusedAt(query.json, 'q');
    const key = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', content: 'c', 'x\u0000': 1 },
    });
    expect(key.status).toBe(400);
    refusedAt(key.json, 'x\u0000');
  });

  it('are refused in a nested value', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', content: 'c', tags: ['ok', 'n\u0000'] },
    });
    expect(status).toBe(400);
    refusedAt(json, 'tags.1');
  });

  it('are refused on the tRPC door', async () => {
    const handle = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
    });
    const input = encodeURIComponent(JSON.stringify({ q: 'a\u0000' }));
    const res = await handle(
      new Request(`http://localhost/api/trpc/users.list?input=${input}`, {
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { data: { error: { code: string } } } };
    expect(body.error.data.error.code).toBe('validation_error');
  });

  it('are refused in the alt text of an upload', async () => {
    const { status, json } = await upload(h, fixture('pixel.png'), { altText: 'a\u0000' });
    expect(status).toBe(400);
    refusedAt(json, 'altText');
  });
});
