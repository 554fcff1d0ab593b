import { eq, users } from '@chorus/db';
import { CONTROL_MESSAGE, SINGLE_LINE_MESSAGE } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory } from '../src';
import { createTrpcHandler } from '../src/server/trpc-door';
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
    // Named with the NUL escaped, as JSON writes it: never echoed raw.
    refusedAt(key.json, 'x\\u0000');
  });

  it('are refused in a nested value', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts', {
      body: { title: 'T', content: 'c', tags: ['ok', 'n\u0000'] },
    });
    expect(status).toBe(400);
    refusedAt(json, 'tags[1]');
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

/** Other control characters: refused everywhere; tabs and line breaks only in one-line fields. */
describe('control characters in input', () => {
  const issues = (json: { error: { code: string; details: { issues: unknown[] } } }) => {
    expect(json.error.code).toBe('validation_error');
    return json.error.details.issues;
  };

  it('are refused in a user name, naming it, on create and update, and nothing is written', async () => {
    for (const name of ['Ada\u0007', 'Ada\u001b[31m', 'Ada\u007f', 'Ada\u0085']) {
      const { status, json } = await h.call('POST', '/api/users', {
        body: { name, email: 'ctl@acme.test', password: 'a-long-password' },
      });
      expect(status, JSON.stringify(name)).toBe(400);
      expect(issues(json)).toEqual([{ path: 'name', message: CONTROL_MESSAGE }]);
    }
    // A line break is text, but not in a name.
    const { status, json } = await h.call('POST', '/api/users', {
      body: { name: 'Ada\nLovelace', email: 'ctl@acme.test', password: 'a-long-password' },
    });
    expect(status).toBe(400);
    expect(issues(json)).toEqual([{ path: 'name', message: SINGLE_LINE_MESSAGE }]);
    expect(await h.db.select().from(users).where(eq(users.email, 'ctl@acme.test'))).toEqual([]);
    const update = await h.call('PUT', `/api/users/${h.main.adminId}`, {
      body: { name: 'Ada\tL' },
    });
    expect(update.status).toBe(400);
    expect(issues(update.json)).toEqual([{ path: 'name', message: SINGLE_LINE_MESSAGE }]);
  });

  it("keep a post's content multi-line, and refuse them in its title, tags and content", async () => {
    const ok = await h.call('POST', '/api/content/posts', {
      body: { title: 'Lines', content: 'one\n\ttwo\r\nthree' },
    });
    expect(ok.status).toBe(201);
    expect(ok.json.data.content).toBe('one\n\ttwo\r\nthree');
    for (const [body, path, message] of [
      [{ title: 'a\nb' }, 'title', SINGLE_LINE_MESSAGE],
      [{ title: 'T', tags: ['ok', 'x\ty'] }, 'tags[1]', SINGLE_LINE_MESSAGE],
      [{ title: 'T', content: 'bell\u0007' }, 'content', CONTROL_MESSAGE],
    ] as const) {
      const { status, json } = await h.call('POST', '/api/content/posts', { body });
      expect(status, path).toBe(400);
      expect(issues(json)).toEqual([{ path, message }]);
    }
  });

  it('are escaped in the path that names them, never echoed raw', async () => {
    const { status, json } = await h.call('POST', '/api/content/posts', {
      raw: '{"title":"p","extra":{"k\\u0000":1}}',
      contentType: 'application/json',
    });
    expect(status).toBe(400);
    expect(issues(json)).toEqual([
      { path: 'extra.k\\u0000', message: 'Must not contain NUL characters.' },
    ]);
    const second = await h.call('POST', '/api/content/posts', {
      raw: '{"title":"p","extra":{"bell\\u0007":1}}',
      contentType: 'application/json',
    });
    expect(issues(second.json)).toEqual([{ path: 'extra.bell\\u0007', message: CONTROL_MESSAGE }]);
  });

  it('are refused in integration fields and in form bodies', async () => {
    const key = await h.call('POST', '/api/integrations/connect/unsplash', {
      body: { apiKey: 'abcdefgh\u0001' },
    });
    expect(key.status).toBe(400);
    expect(issues(key.json)).toEqual([{ path: 'apiKey', message: CONTROL_MESSAGE }]);
    const form = await h.call('POST', '/api/content/posts', {
      raw: 'title=T&tags=a%1Fb',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(400);
    expect(issues(form.json)).toEqual([{ path: 'tags[0]', message: CONTROL_MESSAGE }]);
  });

  it('are refused in the names of API keys and OAuth apps (dashboard procedures)', async () => {
    const caller = createCallerFactory(appRouter)({
      db: h.db,
      principal: h.session(),
      requestId: 'req_test',
      origin: 'http://localhost',
      response: {},
    });
    await expect(
      caller.apiKeys.create({ name: 'ci\u0008', scopes: ['read'], environment: 'test' }),
    ).rejects.toMatchObject({
      cause: { details: { issues: [{ path: 'name', message: CONTROL_MESSAGE }] } },
    });
    const oneLine = {
      code: 'BAD_REQUEST',
      cause: { issues: [{ path: ['name'], message: SINGLE_LINE_MESSAGE }] },
    };
    await expect(
      caller.apiKeys.create({ name: 'ci\nkey', scopes: ['read'], environment: 'test' }),
    ).rejects.toMatchObject(oneLine);
    await expect(
      caller.oauthClients.create({
        name: 'App\r\nX-Injected: 1',
        redirectUris: ['https://app.example.com/cb'],
        scopes: ['read'],
        confidential: false,
      }),
    ).rejects.toMatchObject(oneLine);
  });
});
