/**
 * Issue 25 item 1: one pipeline for every route kind. Each kind — a REST procedure, a REST
 * handler route, a tRPC call, the OAuth machine endpoints — is served through the app's
 * listener as `apiMounts` mounts it, and must get every stage: a request id, the security
 * headers, the budget, one log line, the body cap and the access check, each answered in its
 * door's error shape. A stage skipped for one kind fails here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gzipSync } from 'node:zlib';
import { createServerCaller, principalBucket, toApiError, type RateLimiter } from '../src';
import type { Principal } from '@chorus/auth';
import { apiMounts, createApiListener } from '../src/server';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { listenOnLoopback } from './http-server';
import { fixture } from './media-fixtures';
import { awayFromWindowEdge, testRateLimiter } from './rate-limiter';

const UPLOAD_CAP = 1024;
let h: Harness;
let served: Awaited<ReturnType<typeof listenOnLoopback>>;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  const mounts = apiMounts({
    getDatabase: async () => h.database,
    rateLimiter: testRateLimiter(),
    storage: h.storage,
    maxUploadBytes: UPLOAD_CAP,
  });
  const web = (_req: unknown, res: { end(text: string): void }) => res.end('web');
  served = await listenOnLoopback(
    createApiListener({ mounts, webPaths: ['/api/auth'], web, corsOrigins: new Set() }),
  );
  base = served.base;
});
afterAll(async () => {
  await served?.close();
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const OAUTH_POSTS = ['/oauth/token', '/oauth/revoke', '/oauth/introspect'];

/** One request of each route kind, as a client sends it. */
const kinds = (token: string): [string, string, RequestInit][] => [
  ['REST procedure', '/api/users', { headers: bearer(token) }],
  ['REST handler route', '/api/content/posts/export?format=json', { headers: bearer(token) }],
  ['tRPC call', '/api/trpc/users.list?input=%7B%7D', { headers: bearer(token) }],
  ...OAUTH_POSTS.map((path): [string, string, RequestInit] => [
    path,
    path,
    { method: 'POST', headers: form, body: 'client_id=cli_unknown&token=x' },
  ]),
  ['OAuth metadata', '/.well-known/oauth-authorization-server', {}],
];

/** The log lines written while `work` runs, parsed. */
async function logged(work: () => Promise<void>) {
  const lines: Record<string, unknown>[] = [];
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
    process.env.LOG_LEVEL = level;
  }
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('every route kind, through the one pipeline', () => {
  it('answers with the request id, the security headers and the budget, and is logged once', async () => {
    const answers: { kind: string; id: string; status: number }[] = [];
    const lines = await logged(async () => {
      for (const [i, [kind, path, init]] of kinds(h.main.token).entries()) {
        const id = `pipeline-kind-${i}`;
        const res = await fetch(`${base}${path}`, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), 'x-request-id': id },
        });
        await res.arrayBuffer();
        expect(res.status, kind).toBeLessThan(500);
        expect(res.headers.get('x-request-id'), kind).toBe(id);
        expect(res.headers.get('x-content-type-options'), kind).toBe('nosniff');
        expect(res.headers.get('referrer-policy'), kind).toBe('no-referrer');
        expect(res.headers.get('x-ratelimit-limit'), kind).toMatch(/^\d+$/);
        expect(res.headers.get('x-ratelimit-remaining'), kind).toMatch(/^\d+$/);
        answers.push({ kind, id, status: res.status });
      }
    });
    for (const { kind, id, status } of answers) {
      const mine = lines.filter((line) => line.msg === 'request' && line.requestId === id);
      expect(mine, kind).toHaveLength(1);
      expect(mine[0]?.status, kind).toBe(status);
    }
  });

  it('refuses a compressed body (415, Accept-Encoding: identity) on every route that reads one', async () => {
    const json = {
      ...bearer(h.main.token),
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    };
    const sent = [
      ['/api/users', { method: 'POST', headers: json, body: gzipSync('{"name":"Zip"}') }],
      ['/api/trpc/users.create', { method: 'POST', headers: json, body: gzipSync('{}') }],
      ['/api/content/posts/import', { method: 'POST', headers: json, body: gzipSync('[]') }],
      ['/oauth/token', { method: 'POST', headers: { ...form, 'content-encoding': 'GZIP' } }],
    ] as const;
    for (const [path, init] of sent) {
      const res = await fetch(`${base}${path}`, init);
      const text = await res.text();
      expect(res.status, path).toBe(415);
      expect(res.headers.get('accept-encoding'), path).toBe('identity');
      // The OAuth endpoints answer in RFC 6749's shape, where no code names a media type.
      const code = path.startsWith('/oauth/') ? 'invalid_request' : 'unsupported_media_type';
      expect(text, path).toContain(`"${code}"`);
    }
    // Nothing was written by the REST call.
    const users = await fetch(`${base}/api/users?limit=100`, { headers: bearer(h.main.token) });
    expect(JSON.stringify(await users.json())).not.toContain('Zip');
    // `identity` is no coding at all.
    const plain = await fetch(`${base}/api/content/posts/validate`, {
      method: 'POST',
      headers: {
        ...bearer(h.main.token),
        'content-type': 'application/json',
        'content-encoding': 'identity',
      },
      body: '{"title":"Plain"}',
    });
    expect(plain.status).toBe(200);
  });

  it('refuses a body that is not UTF-8 (400) rather than storing U+FFFD in its place', async () => {
    const json = { ...bearer(h.main.token), 'content-type': 'application/json' };
    // {"title":"caf\xe9"}: Latin-1, not UTF-8.
    const latin1 = Buffer.from('{"title":"caf\xe9 latin"}', 'latin1');
    const rest = await fetch(`${base}/api/content/posts`, {
      method: 'POST',
      headers: json,
      body: latin1,
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({
      error: { code: 'invalid_json', message: 'The request body is not valid UTF-8.' },
    });
    const trpc = await fetch(`${base}/api/trpc/posts.create`, {
      method: 'POST',
      headers: json,
      body: latin1,
    });
    expect(trpc.status).toBe(400);
    const listed = await fetch(`${base}/api/content/posts?limit=100`, {
      headers: bearer(h.main.token),
    });
    expect(JSON.stringify(await listed.json())).not.toContain('latin');
    // The same text in UTF-8 is taken as sent.
    const utf8 = await fetch(`${base}/api/content/posts/validate`, {
      method: 'POST',
      headers: json,
      body: Buffer.from('{"title":"café"}', 'utf8'),
    });
    expect(utf8.status).toBe(200);
  });

  it('refuses a body over its cap (413) before the caller is looked at, in the door’s shape', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const json = { 'content-type': 'application/json' };
    // No credentials: the body stage comes before the principal.
    const rest = await fetch(`${base}/api/users`, { method: 'POST', headers: json, body: big });
    expect(rest.status).toBe(413);
    expect(((await rest.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
    const trpc = await fetch(`${base}/api/trpc/users.create`, {
      method: 'POST',
      headers: json,
      body: big,
    });
    expect(trpc.status).toBe(413);
    const trpcBody = (await trpc.json()) as { error: { data: { error: { code: string } } } };
    expect(trpcBody.error.data.error.code).toBe('payload_too_large');
    for (const path of OAUTH_POSTS) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: form,
        body: `token=${'a'.repeat(100 * 1024)}`,
      });
      expect(res.status, path).toBe(413);
      expect(((await res.json()) as { error: string }).error, path).toBe('invalid_request');
      expect(res.headers.get('x-ratelimit-limit'), path).toMatch(/^\d+$/);
    }
    // An upload has its own cap, past the 1 MiB of JSON bodies: enforced as it streams.
    const upload = new FormData();
    const png = Buffer.concat([fixture('pixel.png'), Buffer.alloc(UPLOAD_CAP)]);
    upload.append('file', new Blob([png], { type: 'image/png' }), 'big.png');
    const media = await fetch(`${base}/api/content/media`, {
      method: 'POST',
      headers: bearer(h.main.token),
      body: upload,
    });
    expect(media.status).toBe(413);
    expect(((await media.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
  });

  it('checks meta.access for each kind before the route runs, in the door’s shape', async () => {
    const { secret } = await h.keyFor(h.main.adminId, ['analytics:read']);
    const refusedRest = [
      ['GET', '/api/users'],
      ['GET', '/api/content/posts/export?format=json'],
      ['POST', '/api/content/media'],
      ['POST', '/api/content/posts/import'],
    ];
    for (const [method, path] of refusedRest) {
      const res = await fetch(`${base}${path}`, { method, headers: bearer(secret) });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe(
        'insufficient_scope',
      );
    }
    const trpc = await fetch(`${base}/api/trpc/users.list?input=%7B%7D`, {
      headers: bearer(secret),
    });
    expect(trpc.status).toBe(403);
    const body = (await trpc.json()) as { error: { data: { error: { code: string } } } };
    expect(body.error.data.error.code).toBe('insufficient_scope');
    // The pipeline checks every call of a batch before any runs: the allowed one does not run
    // either (the procedures' own check alone would answer it, in a 207).
    const input = encodeURIComponent(JSON.stringify({ 0: {}, 1: {} }));
    const batch = await fetch(`${base}/api/trpc/analytics.list,users.list?batch=1&input=${input}`, {
      headers: bearer(secret),
    });
    expect(batch.status).toBe(403);
    const results = (await batch.json()) as { error: { data: { error: { code: string } } } }[];
    expect(results.map((result) => result.error.data.error.code)).toEqual([
      'insufficient_scope',
      'insufficient_scope',
    ]);
  });
});

describe('a path whose percent-escapes do not decode (docs/api.md)', () => {
  const UNDECODABLE = [
    '/api/users/%ZZ',
    '/api/content/media/%E0%A4%A/content',
    '/api/webhooks/%',
    '/api/content/posts/%E0%A4%A',
  ];

  it('is an unknown id through the pipeline: 401 without credentials, 404 with them', async () => {
    for (const path of UNDECODABLE) {
      const stranger = await fetch(`${base}${path}`);
      expect(stranger.status, path).toBe(401);
      expect((await stranger.json()).error.code, path).toBe('unauthorized');
      expect(stranger.headers.get('www-authenticate'), path).toMatch(/^Bearer/);
      const member = await fetch(`${base}${path}`, { headers: bearer(h.main.token) });
      expect(member.status, path).toBe(404);
      expect((await member.json()).error.code, path).toBe('resource_not_found');
      expect(member.headers.get('x-ratelimit-limit'), path).toMatch(/^\d+$/);
    }
  });

  it('is an unknown route where no route matches, and never reaches the web app', async () => {
    const stranger = await fetch(`${base}/api/%ZZ`);
    expect(stranger.status).toBe(401);
    const member = await fetch(`${base}/api/%ZZ`, { headers: bearer(h.main.token) });
    expect(member.status).toBe(404);
    expect((await member.json()).error.code).toBe('route_not_found');
    // On the tRPC door, a procedure name that does not decode names none, in tRPC's shape.
    const trpc = await fetch(`${base}/api/trpc/%ZZ`, { headers: bearer(h.main.token) });
    expect(trpc.status).toBe(404);
    expect((await trpc.json()).error.data.error.code).toBe('route_not_found');
    // The web app's paths under /api/ (next-auth) name no action that does not decode.
    const web = await fetch(`${base}/api/auth/%E0%A4%A`);
    expect(web.status).toBe(404);
    expect((await web.json()).error).toMatchObject({ code: 'route_not_found', status: 404 });
  });
});

describe('the dashboard’s server calls', () => {
  /** The procedures as the dashboard's server calls them, as `principal`. */
  const dashboardCaller = (principal: Principal, rateLimiter: RateLimiter) =>
    createServerCaller({
      db: h.db,
      principal,
      requestId: 'req_dashboard',
      origin: 'http://localhost',
      rateLimiter,
    });

  it('spend the signed-in user’s session budget, the one the tRPC door’s session calls spend', async () => {
    const rateLimiter = testRateLimiter({ free: { read: 2, write: 1 } });
    const principal = h.session();
    const trpc = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter,
      sessionPrincipal: async () => principal,
    });
    await awayFromWindowEdge();
    await dashboardCaller(principal, rateLimiter).users.list({});
    const viaDoor = await trpc(new Request('http://localhost/api/trpc/users.list?input=%7B%7D'));
    expect(viaDoor.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await dashboardCaller(principal, rateLimiter)
      .users.list({})
      .catch((error: unknown) => toApiError(error));
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    await rateLimiter.close();
  });

  it('count a page view once, however many queries its caller makes', async () => {
    const rateLimiter = testRateLimiter({ free: { read: 2, write: 1 } });
    const principal = h.session();
    const reads = principalBucket(principal, 'GET', rateLimiter.limits);
    await awayFromWindowEdge();
    const page = dashboardCaller(principal, rateLimiter);
    await Promise.all([page.users.list({}), page.integrations.list({}), page.users.list({})]);
    await page.integrations.connected({});
    expect((await rateLimiter.peek(reads)).remaining).toBe(1);
    // The next page view is the next read; past the budget, every query of it is refused.
    await dashboardCaller(principal, rateLimiter).users.list({});
    const over = dashboardCaller(principal, rateLimiter);
    const refused = await Promise.all([
      over.users.list({}).catch((error: unknown) => toApiError(error)),
      over.integrations.list({}).catch((error: unknown) => toApiError(error)),
    ]);
    expect(refused).toMatchObject([
      { status: 429, code: 'rate_limit_exceeded' },
      { status: 429, code: 'rate_limit_exceeded' },
    ]);
    await rateLimiter.close();
  });

  it('leave a mutation’s budget to the server action that makes it (counted at the port)', async () => {
    const rateLimiter = testRateLimiter({ free: { read: 5, write: 1 } });
    const principal = h.session();
    const caller = dashboardCaller(principal, rateLimiter);
    await awayFromWindowEdge();
    const writes = principalBucket(principal, 'POST', rateLimiter.limits);
    await caller.posts.create({ title: 'Counted once, by its action' });
    expect((await rateLimiter.peek(writes)).remaining).toBe(1);
    await rateLimiter.close();
  });

  it('are checked against the procedure’s access rule', async () => {
    const caller = dashboardCaller(h.session({ scopes: ['analytics:read'] }), testRateLimiter());
    const thrown = await caller.users.list({}).catch((error: unknown) => error);
    // The procedure's own kind of refusal, so that pages read it as they read the procedure's.
    expect(thrown).toMatchObject({ code: 'FORBIDDEN' });
    expect(toApiError(thrown)).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });
});
