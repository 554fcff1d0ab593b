/**
 * Hostile input for every operation of the OpenAPI document (so operations added later are
 * covered without a list here), sent through a real socket: no 5xx, every error in the
 * envelope, nothing internal in any body, and refused requests change nothing in the database.
 * Fixed seed; FUZZ_RUNS (requests per operation) scales the budget.
 */
import fc from 'fast-check';
import { sql } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/document';
import { appRouter } from '../src/trpc/root';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { hostileBody, hostileDate, hostileValue, type Schema } from './hostile';
import { serveOnLoopback } from './http-server';
import { testRateLimiter } from './rate-limiter';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = 20261123;

let h: Harness;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let trpcServer: Awaited<ReturnType<typeof serveOnLoopback>>;
let foreignUserId: string;
let tables: string[];
beforeAll(async () => {
  // Budgets out of the way: a 429 would stop the fuzzing before the code under test.
  h = await startHarness({
    limits: { free: { read: 1e9, write: 1e9 }, anonymous: 1e9 },
  });
  server = await serveOnLoopback(h.handle);
  trpcServer = await serveOnLoopback(
    createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter({ free: { read: 1e9, write: 1e9 }, anonymous: 1e9 }),
    }),
  );
  foreignUserId = (await h.newAccount('Foreign', 'admin@foreign.test')).adminId;
  const rows = await h.db.execute(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  tables = rowsOf<{ name: string }>(rows)
    .map((row) => row.name)
    .filter((name) => !name.startsWith('__drizzle'));
});
afterAll(async () => {
  await trpcServer?.close();
  await server.close();
  await h.close();
});

/** Rows of a raw query: postgres.js answers an array, PGlite an object with `rows`. */
const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/** What the database holds; api_keys without last_used_at, which authentication refreshes. */
async function fingerprint(): Promise<string> {
  const parts = tables.map((table) => {
    const row =
      table === 'api_keys'
        ? sql`(t.id, t.name, t.scopes, t.revoked_at, t.expires_at)::text`
        : sql`t::text`;
    return sql`(select md5(coalesce(string_agg(${row}, ',' order by ${row}), '')) from ${sql.identifier(table)} t)`;
  });
  const result = await h.db.execute(sql`select concat_ws('|', ${sql.join(parts, sql`, `)}) as f`);
  const [row] = rowsOf<{ f: string }>(result);
  return row?.f ?? '';
}

const LEAKS =
  /\bat \S+ \(|\.ts:\d+|node_modules|\b(select|insert|update|delete)\b .*\b(from|into|set)\b|syntax error|relation "|violates|password_hash|token_hash|csk_(live|test)_[0-9A-Za-z]{20}|cso_(at|rt)_|whsec_|stack/i;

interface Operation {
  method: string;
  path: string;
  params: { in: string; name: string; schema: Schema }[];
  body?: Schema;
}

const doc = openApiDocument('http://localhost') as unknown as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, Schema> };
};
const resolve = (schema: Schema | undefined): Schema | undefined => {
  const ref = schema?.$ref;
  return typeof ref === 'string'
    ? doc.components?.schemas?.[ref.replace('#/components/schemas/', '')]
    : schema;
};
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    params: ((op.parameters ?? []) as Operation['params']).filter((p) => p.in && p.name),
    body: resolve(
      (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.[
        'application/json'
      ]?.schema,
    ),
  })),
);

const idLike = () =>
  fc.oneof(
    fc.constantFrom(
      foreignUserId,
      'usr_' + '0'.repeat(26),
      '..',
      '%00',
      '%2e%2e%2f',
      '%E0%A4%A',
      'facebook',
      'tiktok',
    ),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  );

/** One hostile request for an operation. */
const requestFor = (op: Operation) =>
  fc.record({
    pathValues: fc.array(idLike(), { minLength: 4, maxLength: 4 }),
    query: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...op.params.filter((p) => p.in === 'query').map((p) => p.name), 'x'),
          fc.constantFrom('__proto__', 'constructor', 'toString', 'page[0]', ''),
        ),
        fc.oneof(
          hostileValue().map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
          hostileDate(),
        ),
      ),
      { maxLength: 4 },
    ),
    body: hostileBody(op.body),
    auth: fc.constantFrom('admin', 'admin', 'admin', 'none', 'garbage'),
  });

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(10);
  });

  for (const op of operations) {
    it(`${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (input) => {
          let i = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => input.pathValues[i++] ?? 'x');
          const search = new URLSearchParams(input.query).toString();
          const headers: Record<string, string> = {};
          if (input.auth === 'admin') headers.authorization = `Bearer ${h.main.token}`;
          if (input.auth === 'garbage') headers.authorization = 'Bearer csk_live_\u0000nope';
          const hasBody = !['GET', 'HEAD', 'DELETE'].includes(op.method);
          if (hasBody) headers['content-type'] = input.body.contentType;
          const mutating = op.method !== 'GET' && op.method !== 'HEAD';
          const before = mutating ? await fingerprint() : '';
          const res = await fetch(`${server.base}${path}${search && `?${search}`}`, {
            method: op.method,
            headers,
            body: hasBody ? (input.body.bytes as BodyInit) : undefined,
            redirect: 'manual',
          }).catch((error: unknown) => {
            // Header values fetch itself refuses never reach the server.
            if (
              error instanceof TypeError &&
              /header|ByteString/i.test(String(error.cause ?? error.message))
            )
              return null;
            throw error;
          });
          if (!res) return;
          const text = await res.text();
          // Node's HTTP parser itself refuses an over-long request line before any handler.
          if (res.status === 431 && text === '') return;
          expect(res.status, `${op.method} ${path} → ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            // Success bodies are content (the OpenAPI document talks about SQL-ish things).
            expect(text).not.toMatch(LEAKS);
            const body = JSON.parse(text);
            expect(body).toMatchObject({ success: false, error: { status: res.status } });
            expect(typeof body.error.code).toBe('string');
            if (mutating) expect(await fingerprint()).toBe(before);
          }
          // Another account's user is never found, whatever else the request says.
          if (input.auth === 'admin' && path.includes(foreignUserId)) {
            expect([404, 400, 413, 415]).toContain(res.status);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // A few hundred requests per operation: seconds when idle, more on a loaded CI machine.
    }, 240_000);
  }
});

/** Every procedure of the tRPC door, with what it is (queries are GETs, mutations POSTs). */
const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })
    ._def.procedures,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A query's input in its URL, brackets raw (as curl -g sends them): 5,000 levels fit. */
const inUrl = (input: string) =>
  encodeURIComponent(input).replace(/%5B/g, '[').replace(/%5D/g, ']');

/** Inputs every procedure must refuse or take without a 5xx, on the typed door too. */
const TRPC_INPUTS = [
  deepJson(5_000),
  `{"a":${deepJson(5_000)}}`,
  JSON.stringify({
    from: '0000-01-01',
    to: '0000-12-31T23:59:59Z',
    occurredAt: '0000-01-01T00:00:00Z',
    scheduledAt: '9999-12-31T23:30:00-05:00',
    expiresAt: '0000-01-01T00:00:00Z',
    events: [{ type: 'like', occurredAt: '0000-01-01T00:00:00Z', count: 2_147_483_648 }],
  }),
];

describe('fuzzing every procedure of the tRPC door', () => {
  it('covers the router', () => {
    expect(procedures.length).toBeGreaterThanOrEqual(10);
  });

  it('answers deep JSON, year 0000 and large counters without a 5xx, in the envelope', async () => {
    const auth = { authorization: `Bearer ${h.main.token}` };
    for (const { path, type } of procedures) {
      for (const input of TRPC_INPUTS) {
        const res =
          type === 'query'
            ? await fetch(`${trpcServer.base}/api/trpc/${path}?input=${inUrl(input)}`, {
                headers: auth,
              })
            : await fetch(`${trpcServer.base}/api/trpc/${path}`, {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: input,
              });
        const text = await res.text();
        // A query's input in the URL can pass Node's header limit: refused before any handler.
        if (res.status === 431 && text === '') continue;
        expect(res.status, `${type} ${path} → ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(text).not.toMatch(LEAKS);
          const body = JSON.parse(text) as { error: { data: { error: { code: string } } } };
          expect(typeof body.error.data.error.code).toBe('string');
        }
      }
    }
  }, 240_000);
});
