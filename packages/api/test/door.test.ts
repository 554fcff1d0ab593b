import { openDatabase, sql } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, memoryStore } from '../src/rate-limit';
import { createRestHandler } from '../src/rest';
import { requestIdFrom } from '../src/server/request-id';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('headers on every response', () => {
  it('sets API-Version: 1 and a generated X-Request-Id on success, errors and 401s', async () => {
    for (const [method, path, token] of [
      ['GET', '/api/users', undefined],
      ['GET', '/api/users/usr_missing', undefined],
      ['GET', '/api/users', null],
      ['GET', '/api/nowhere', undefined],
      ['GET', '/api/health', null],
    ] as const) {
      const { headers } = await h.call(method, path, { token });
      expect(headers.get('api-version')).toBe('1');
      expect(headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });

  it('gives every request its own id, across refills of the random pool', () => {
    // 1,000 ids draw 12,000 bytes: the 4 KiB pool is refilled twice on the way.
    const ids = Array.from({ length: 1000 }, () => requestIdFrom(undefined));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('echoes a valid incoming X-Request-Id and replaces an invalid one', async () => {
    const echoed = await h.call('GET', '/api/users', {
      headers: { 'x-request-id': 'client-abc.123' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('client-abc.123');
    const replaced = await h.call('GET', '/api/users', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('routing', () => {
  it('works whatever the host name', async () => {
    for (const origin of [
      'http://api.example.com',
      'https://chorus.example.org:8443',
      'http://127.0.0.1:3000',
    ]) {
      const { status, json } = await h.call('GET', '/api/users', { origin });
      expect(status).toBe(200);
      expect(json.pagination.total).toBeGreaterThan(0);
    }
  });

  it('treats a trailing slash as the same path', async () => {
    expect((await h.call('GET', '/api/users/')).status).toBe(200);
  });

  it('answers 404 route_not_found for an unknown path', async () => {
    const { status, json } = await h.call('GET', '/api/nothing/here');
    expect(status).toBe(404);
    expect(json).toEqual({
      success: false,
      error: { code: 'route_not_found', message: expect.any(String), status: 404 },
    });
  });

  it('repeats at most 200 characters of a long path in its 404 or 405 message', async () => {
    const tail = 'x'.repeat(5000);
    const unknown = await h.call('GET', `/api/${tail}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe(`No route for ${`/api/${tail}`.slice(0, 200)}….`);
    const other = await h.call('PATCH', `/api/users/${tail}`, { body: {} });
    expect(other.status).toBe(405);
    expect(other.json.error.message.length).toBeLessThan(250);
    expect((await h.call('GET', '/api/nothing')).json.error.message).toBe(
      'No route for /api/nothing.',
    );
  });

  it('answers 405 method_not_allowed with Allow for a known path', async () => {
    const { status, json, headers } = await h.call('PATCH', '/api/users', { body: {} });
    expect(status).toBe(405);
    expect(json.error.code).toBe('method_not_allowed');
    expect(headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const single = await h.call('POST', `/api/users/${h.main.adminId}`, { body: {} });
    expect(single.headers.get('allow')).toBe('GET, PUT, DELETE, HEAD, OPTIONS');
  });

  it("answers a named sub-route's other methods 405 with its Allow, not as a parameter", async () => {
    for (const [method, path, allow] of [
      ['GET', '/api/content/posts/validate', 'POST, OPTIONS'],
      ['DELETE', '/api/content/posts/import', 'POST, OPTIONS'],
      ['PUT', '/api/content/posts/export', 'GET, HEAD, OPTIONS'],
      ['POST', '/api/content/posts/export', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/integrations/connected', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      const { status, json, headers } = await h.call(method, path, { body });
      expect(status, `${method} ${path}`).toBe(405);
      expect(json.error.code).toBe('method_not_allowed');
      expect(headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
    const options = await h.call('OPTIONS', '/api/content/posts/validate');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers HEAD like GET without a body', async () => {
    const { status, res } = await h.call('HEAD', '/api/users');
    expect(status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('refuses writes on the public documents with 405', async () => {
    const { status, headers } = await h.call('POST', '/api/health', { token: null, body: {} });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers OPTIONS on the public documents with 204 and Allow, without credentials', async () => {
    for (const path of ['/api/health', '/api/openapi.json']) {
      const { status, headers } = await h.call('OPTIONS', path, { token: null });
      expect(status, path).toBe(204);
      expect(headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
      expect(headers.get('x-ratelimit-limit'), path).toMatch(/^\d+$/);
    }
  });

  it('answers OPTIONS on every known path with 204 and Allow, without credentials', async () => {
    for (const token of [null, 'cs_live_not-a-key', undefined]) {
      for (const [path, allow] of [
        ['/api/users', 'GET, POST, HEAD, OPTIONS'],
        [`/api/users/${h.main.adminId}`, 'GET, PUT, DELETE, HEAD, OPTIONS'],
        ['/api/users/usr_of_nobody', 'GET, PUT, DELETE, HEAD, OPTIONS'],
        ['/api/content/posts/validate', 'POST, OPTIONS'],
        ['/api/content/media', 'GET, POST, HEAD, OPTIONS'],
      ] as const) {
        const { status, headers, json } = await h.call('OPTIONS', path, { token });
        expect(status, `${path} ${token}`).toBe(204);
        expect(headers.get('allow'), path).toBe(allow);
        expect(headers.get('api-version'), path).toBe('1');
        expect(headers.get('x-ratelimit-limit'), path).toMatch(/^\d+$/);
        expect(json).toBeUndefined();
      }
    }
  });

  it('leaves OPTIONS on an unknown path as any method there: 401 to strangers, else 404', async () => {
    expect((await h.call('OPTIONS', '/api/nothing/here', { token: null })).status).toBe(401);
    expect((await h.call('OPTIONS', '/api/nothing/here')).status).toBe(404);
  });
});

describe('request bodies', () => {
  it('accepts form-encoded bodies, converting fields by the input schema', async () => {
    const form = new URLSearchParams({
      name: 'Form User',
      email: 'form@acme.test',
      password: 'form-password',
    });
    const created = await h.call('POST', '/api/users', {
      raw: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Form User',
      email: 'form@acme.test',
      role: 'user',
    });
    const updated = await h.call('PUT', `/api/users/${created.json.id}`, {
      raw: 'settings[notifications]=false&name=Formed',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'Formed', settings: { notifications: false } });
  });

  it('answers 400 invalid_json for a malformed JSON body', async () => {
    const { status, json } = await h.call('POST', '/api/users', { raw: '{"name": "x",' });
    expect(status).toBe(400);
    expect(json.error.code).toBe('invalid_json');
  });

  it('answers 400 validation_error for JSON that is not an object', async () => {
    const { status, json } = await h.call('POST', '/api/users', { raw: '[1,2]' });
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
  });

  it('answers 415 unsupported_media_type for other content types', async () => {
    const { status, json } = await h.call('POST', '/api/users', {
      raw: '<user/>',
      contentType: 'application/xml',
    });
    expect(status).toBe(415);
    expect(json.error.code).toBe('unsupported_media_type');
  });

  it('takes application/json in UTF-8 only: other JSON-like types and charsets are 415', async () => {
    const before = (await h.call('GET', '/api/content/posts')).json.meta.pagination.total;
    const refused = [
      'application/vnd.api+json',
      'application/merge-patch+json',
      'application/json; charset=ISO-8859-1',
      'application/json;charset=utf-16',
      'application/json; version=2',
      'text/json',
      'application/x-www-form-urlencoded; charset=iso-8859-1',
    ];
    for (const type of refused) {
      const { status, json } = await h.call('POST', '/api/content/posts', {
        raw: type.includes('form') ? 'title=x' : JSON.stringify({ title: 'x' }),
        contentType: type,
      });
      expect(status, type).toBe(415);
      expect(json.error.code, type).toBe('unsupported_media_type');
      expect(json.error.message, type).toContain(
        'send application/json (UTF-8) or application/x-www-form-urlencoded',
      );
    }
    expect((await h.call('GET', '/api/content/posts')).json.meta.pagination.total).toBe(before);
    const accepted = [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;Charset="UTF-8"',
      'application/x-www-form-urlencoded; charset=UTF-8',
    ];
    for (const type of accepted) {
      const { status } = await h.call('POST', '/api/content/posts', {
        raw: type.includes('form') ? 'title=x' : JSON.stringify({ title: 'x' }),
        contentType: type,
      });
      expect(status, type).toBe(201);
    }
  });

  it('answers 413 payload_too_large over 1 MiB and creates nothing', async () => {
    const before = (await h.call('GET', '/api/users')).json.pagination.total;
    const body = JSON.stringify({
      name: 'Big',
      email: 'big@acme.test',
      password: 'x'.repeat(1024 * 1024),
    });
    const { status, json } = await h.call('POST', '/api/users', { raw: body });
    expect(status).toBe(413);
    expect(json.error.code).toBe('payload_too_large');
    expect((await h.call('GET', '/api/users')).json.pagination.total).toBe(before);
  });

  it('accepts a body of exactly 1 MiB (it then fails validation, not size)', async () => {
    const padding = 1024 * 1024 - JSON.stringify({ name: '' }).length;
    const { status, json } = await h.call('POST', '/api/users', {
      raw: JSON.stringify({ name: 'x'.repeat(padding) }),
    });
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
  });

  it('checks authentication before the body', async () => {
    const { status } = await h.call('POST', '/api/users', { token: null, raw: '{broken' });
    expect(status).toBe(401);
  });
});

describe('failures never leak internals', () => {
  it('answers 500 internal_error with a fixed message when a query fails', async () => {
    const broken = await startHarness();
    await broken.db.execute(sql`alter table users rename column name to full_name`);
    const { status, json } = await broken.call('GET', '/api/users');
    expect(status).toBe(500);
    expect(json).toEqual({
      success: false,
      error: { code: 'internal_error', message: 'An unexpected error occurred.', status: 500 },
    });
    await broken.close();
  });

  it('answers 503 service_unavailable with Retry-After when the database is unreachable', async () => {
    const unreachable = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    const handle = createRestHandler({ getDatabase: async () => unreachable });
    const res = await handle(
      new Request('http://localhost/api/users', {
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await res.json()).error.code).toBe('service_unavailable');
    const health = await handle(new Request('http://localhost/api/health'));
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: 'down',
      checks: { database: { status: 'down' } },
    });
    await unreachable.close();
  });

  it('spends no per-address budget on credentials it could not check (503, never 429)', async () => {
    const unreachable = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    const rateLimiter = createRateLimiter({ store: memoryStore(), limits: { anonymous: 1 } });
    const handle = createRestHandler({ getDatabase: async () => unreachable, rateLimiter });
    for (let i = 0; i < 3; i++) {
      const res = await handle(
        new Request('http://localhost/api/users', {
          headers: { authorization: `Bearer ${h.main.token}` },
        }),
      );
      expect(res.status).toBe(503);
    }
    await rateLimiter.close();
    await unreachable.close();
  });
});

describe('GET /api/health', () => {
  it('reports the database down (503) when it cannot even be opened', async () => {
    const handle = createRestHandler({
      getDatabase: () => Promise.reject(new Error('DATABASE_URL is not set')),
    });
    const res = await handle(new Request('http://localhost/api/health'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'down',
      checks: { database: { status: 'down' } },
    });
  });

  it('is public and reports the database and the job queue (no worker here: degraded, 200)', async () => {
    const { status, json } = await h.call('GET', '/api/health', { token: null });
    expect(status).toBe(200);
    // A worker running is packages/jobs/test/health.test.ts's.
    expect(json).toMatchObject({
      status: 'degraded',
      checks: { database: { status: 'up' }, queue: { status: 'down' }, worker: { status: 'down' } },
    });
  });
});
