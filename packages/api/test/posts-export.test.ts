import { posts, sql } from '@chorus/db';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createApiListener, createHttpServer } from '../src/server';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  await createPost(h, { title: '=HYPERLINK("http://evil.test")', content: '+1', tags: ['x'] });
  await createPost(h, { title: '@SUM(A1)', content: '-2', tags: ['y'] });
  await createPost(h, { title: 'Tabbed', content: '\tplain, "quoted"\nline', status: 'published' });
  await createPost(h, { title: 'Theirs', content: 'secret of Globex' }, other.token);
});
afterAll(() => h.close());

const exportOf = (query: string, token?: string | null) =>
  h.call('GET', `/api/content/posts/export${query}`, { token });

async function exportCsv(query = '') {
  const res = await h.handle(
    new Request(`http://localhost:3000/api/content/posts/export?format=csv${query}`, {
      headers: { authorization: `Bearer ${h.main.token}` },
    }),
  );
  expect(res.status).toBe(200);
  return { res, records: parse(await res.text(), { columns: true }) as Record<string, string>[] };
}

describe('GET /api/content/posts/export', () => {
  it("exports the account's posts as JSON, newest first, never another account's", async () => {
    const { status, json, headers } = await exportOf('');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('application/json');
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="posts-.*\.json"$/);
    expect(json.map((p: { title: string }) => p.title)).toEqual([
      'Tabbed',
      '@SUM(A1)',
      '=HYPERLINK("http://evil.test")',
    ]);
    expect(Object.keys(json[0]).sort()).toEqual(
      Object.keys((await h.call('GET', `/api/content/posts/${json[0].id}`)).json.data).sort(),
    );
    expect(JSON.stringify(json)).not.toContain('Globex');
    const theirs = await exportOf('', other.token);
    expect(theirs.json.map((p: { title: string }) => p.title)).toEqual(['Theirs']);
  });

  it("prefixes cells a spreadsheet would run as formulas with ' (OWASP), and quotes the rest", async () => {
    const { res, records } = await exportCsv();
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(records.map((r) => [r.title, r.content])).toEqual([
      ['Tabbed', '\'\tplain, "quoted"\nline'],
      ["'@SUM(A1)", "'-2"],
      [`'=HYPERLINK("http://evil.test")`, "'+1"],
    ]);
    expect(records[0]).toMatchObject({ status: 'published', tags: '' });
    expect(records[2]?.tags).toBe('x');
  });

  it('round-trips: an export imports back as the same titles and contents', async () => {
    const res = await h.handle(
      new Request('http://localhost:3000/api/content/posts/export?format=csv&status=draft', {
        headers: { authorization: `Bearer ${other.token}` },
      }),
    );
    const text = await res.text();
    const imported = await h.call('POST', '/api/content/posts/import', {
      raw: text,
      contentType: 'text/csv',
      token: other.token,
    });
    expect(imported.status).toBe(201);
    const again = await exportOf('?status=draft', other.token);
    expect(again.json.map((p: { title: string }) => p.title)).toEqual(['Theirs', 'Theirs']);
  });

  it('round-trips any stored text exactly, quotes and formula guards included', async () => {
    // A fresh account: these posts stay out of the other tests' lists.
    const own = await h.newAccount('Initech', 'admin@initech.test');
    const tricky = [
      { title: "'=already", content: "'+1", tags: ["'x", '=y'] },
      { title: "'plain", content: "'", tags: ["'=z"] },
      { title: "''=double", content: "''", tags: ['-minus', '+plus'] },
      { title: '=1+1', content: '\tTabbed first', tags: ['@at'] },
      { title: '+1', content: '\r\nCR first', tags: [] },
      { title: '-1', content: "'\tquote then tab", tags: [] },
      { title: '@x', content: "'\r\nquote then CR", tags: [] },
      { title: "'", content: '', tags: [] },
      { title: "''", content: 'multi\nline, "quoted"', tags: [] },
      { title: '"quoted", comma', content: "'-", tags: [] },
      { title: "it's plain", content: '  spaced  ', tags: [] },
    ];
    const importInto = (body: { posts: unknown } | string) =>
      h.call('POST', '/api/content/posts/import', {
        ...(typeof body === 'string' ? { raw: body, contentType: 'text/csv' } : { body }),
        token: own.token,
      });
    const csvExport = async () =>
      (
        await h.handle(
          new Request('http://localhost:3000/api/content/posts/export?format=csv', {
            headers: { authorization: `Bearer ${own.token}` },
          }),
        )
      ).text();
    /** The posts' texts, in one order whatever order they were written in. */
    const texts = async () =>
      ((await exportOf('', own.token)).json as typeof tricky)
        .map(({ title, content, tags }) => JSON.stringify({ title, content, tags }))
        .sort();
    const expected = tricky.map((post) => JSON.stringify(post)).sort();
    expect((await importInto({ posts: tricky })).status).toBe(201);
    expect(await texts()).toEqual(expected);
    const csv = await csvExport();
    const back = await importInto(csv);
    expect(back.status, JSON.stringify(back.json)).toBe(201);
    // Each text is there twice now: as written, and as the CSV brought it back.
    expect(await texts()).toEqual([...expected, ...expected].sort());
  });

  it("applies the list's filters, and refuses what the list refuses", async () => {
    expect((await exportOf('?status=published')).json).toHaveLength(1);
    expect((await exportOf('?tag=y')).json.map((p: { title: string }) => p.title)).toEqual([
      '@SUM(A1)',
    ]);
    expect((await exportOf('?q=HYPERLINK')).json).toHaveLength(1);
    expect((await exportOf('?from=2999-01-01')).json).toEqual([]);
    const { records } = await exportCsv('&from=2999-01-01');
    expect(records).toEqual([]);
    for (const query of ['?format=xml', '?from=2026-02-01&to=2026-01-01', '?status=live']) {
      const { status, json } = await exportOf(query);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('validation_error');
    }
  });

  it('needs content:read, for any member, and answers HEAD without a body', async () => {
    const writer = (await h.keyFor(h.main.adminId, ['content:write', 'read'])).secret;
    const refused = await exportOf('', writer);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect((await exportOf('', null)).status).toBe(401);
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@export.test', password: 'a-long-password' },
    });
    const member = (await h.keyFor(created.json.id, ['content:read'])).secret;
    expect((await exportOf('', member)).json).toHaveLength(3);
    const head = await h.handle(
      new Request('http://localhost:3000/api/content/posts/export', {
        method: 'HEAD',
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await h.call('POST', '/api/content/posts/export', { body: {} });
    expect(post.status).toBe(405);
  });

  it("streams JSON through the app's listener as it comes, never read whole first", async () => {
    const server = createHttpServer();
    server.on(
      'request',
      createApiListener({ mounts: [['/api', h.handle]], webPaths: [], web: (_, res) => res.end() }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const headers = { authorization: `Bearer ${h.main.token}` };
      const res = await fetch(`${base}/api/content/posts/export`, { headers });
      // A body read whole is sent with its length; a stream goes out chunked.
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(await res.json()).toEqual((await exportOf('')).json);
      const list = await fetch(`${base}/api/content/posts`, { headers });
      expect(list.headers.get('content-length')).not.toBeNull();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('streams 100,000 posts a batch at a time, each once, in order', async () => {
    // Written directly: the import's 1,000-row limit is not what this measures.
    await h.db.execute(sql`
      insert into ${posts} (id, account_id, title, content, created_at, updated_at)
      select 'post_bulk' || lpad(i::text, 6, '0'), ${h.main.accountId}, 'Bulk ' || i, 'x',
             now() - interval '1 day' - i * interval '1 second', now()
      from generate_series(1, 100000) as i`);
    const res = await h.handle(
      new Request('http://localhost:3000/api/content/posts/export?format=csv&q=Bulk', {
        headers: { authorization: `Bearer ${h.main.token}` },
      }),
    );
    expect(res.status).toBe(200);
    if (!res.body) throw new Error('no body');
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let chunks = 0;
    let largest = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      largest = Math.max(largest, value.length);
      text += value;
    }
    const records = parse(text, { columns: true }) as { title: string; id: string }[];
    expect(records).toHaveLength(100_000);
    expect(new Set(records.map((r) => r.id)).size).toBe(100_000);
    expect(records[0]?.title).toBe('Bulk 1');
    expect(records.at(-1)?.title).toBe('Bulk 100000');
    // A chunk per batch of 500 (and the header): the body never was one whole string.
    expect(chunks).toBeGreaterThanOrEqual(200);
    expect(largest).toBeLessThan(100_000);
  }, 300_000);
});
