import { and, count, eq, events, posts } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { inAnHour } from './posts-fixtures';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
});
afterAll(() => h.close());

const csv = (
  text: string | Uint8Array<ArrayBuffer>,
  query = '',
  token?: string | null,
  contentType = 'text/csv',
) => h.call('POST', `/api/content/posts/import${query}`, { raw: text, contentType, token });
const jsonImport = (body: unknown, query = '', token?: string) =>
  h.call('POST', `/api/content/posts/import${query}`, { body, token });

async function postCount(accountId = h.main.accountId) {
  const [row] = await h.db.select({ n: count() }).from(posts).where(eq(posts.accountId, accountId));
  return row?.n ?? 0;
}
async function eventCount() {
  const [row] = await h.db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.accountId, h.main.accountId), eq(events.type, 'post.created')));
  return row?.n ?? 0;
}

/** A CSV of `n` valid rows, scheduled within the next day. */
function rowsCsv(n: number, bad?: { row: number; scheduledAt: string }) {
  const lines = ['title,content,tags,scheduledAt'];
  for (let i = 1; i <= n; i++) {
    const at = bad?.row === i ? bad.scheduledAt : i % 2 ? inAnHour() : '';
    lines.push(`Post ${i},"Body, with a comma ${i}","bulk,n${i % 3}",${at}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('POST /api/content/posts/import', () => {
  it('imports a CSV as drafts, or scheduled when a row has a time, through the create rules', async () => {
    const before = await postCount();
    const text =
      'title,content,tags,scheduledAt,channels\n' +
      `Launch,"Multi\nline, quoted ""text""", launch , ${inAnHour()},\n` +
      'Later,,"a, b ,a",,\n';
    const { status, json } = await csv(text);
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.data).toMatchObject({ dryRun: false, valid: true, count: 2, issues: [] });
    expect(json.data.ids).toHaveLength(2);
    const [launch, later] = await Promise.all(
      json.data.ids.map((id: string) => h.call('GET', `/api/content/posts/${id}`)),
    );
    expect(launch?.json.data).toMatchObject({
      title: 'Launch',
      content: 'Multi\nline, quoted "text"',
      tags: ['launch'],
      status: 'scheduled',
    });
    expect(later?.json.data).toMatchObject({
      status: 'draft',
      tags: ['a', 'b'],
      scheduledAt: null,
    });
    expect(await postCount()).toBe(before + 2);
  });

  it("sends a row's channels to the create as targets, refusing unknown ones by row", async () => {
    const before = await postCount();
    const { status, json } = await csv('title,channels\nA,\nB," chn_1 , chn_2"\n');
    expect(status).toBe(400);
    expect(json.error.details.issues).toEqual([
      { row: 2, line: 3, path: 'targets[0].channelId', message: expect.stringContaining('chn_1') },
      { row: 2, line: 3, path: 'targets[1].channelId', message: expect.stringContaining('chn_2') },
    ]);
    expect(await postCount()).toBe(before);
  });

  it('imports JSON create bodies', async () => {
    const { status, json } = await jsonImport({
      posts: [
        { title: 'J1', tags: ['x'] },
        { title: 'J2', scheduledAt: inAnHour() },
      ],
    });
    expect(status).toBe(201);
    expect(json.data.rows.map((r: { status: string }) => r.status)).toEqual(['draft', 'scheduled']);
  });

  it('imports a bare array of posts (a JSON export), and refuses a body that is neither', async () => {
    const { status, json } = await jsonImport([{ title: 'A1' }, { title: 'A2', tags: ['y'] }]);
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.data.rows.map((r: { title: string }) => r.title)).toEqual(['A1', 'A2']);
    const before = await postCount();
    for (const raw of ['null', '"posts"', '7', '{}', '{"posts":{}}']) {
      const refused = await csv(raw, '', undefined, 'application/json');
      expect(refused.status, raw).toBe(400);
      expect(refused.json.error.details.issues, raw).toEqual([
        { path: 'posts', message: 'Expected an array of posts.' },
      ]);
    }
    expect(await postCount()).toBe(before);
  });

  it('rolls everything back when one row is bad, naming its row and line', async () => {
    const before = await postCount();
    const eventsBefore = await eventCount();
    const { status, json } = await csv(rowsCsv(20, { row: 7, scheduledAt: '2026-13-45 nope' }));
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.message).toContain('nothing was imported');
    expect(json.error.details.issues).toEqual([
      { row: 7, line: 8, path: 'scheduledAt', message: expect.any(String) },
    ]);
    expect(await postCount()).toBe(before);
    expect(await eventCount()).toBe(eventsBefore);
  });

  it("refuses a row the create's own rules refuse (a past time), by row, and keeps nothing", async () => {
    const before = await postCount();
    const past = new Date(Date.now() - 60_000).toISOString();
    const { status, json } = await jsonImport({
      posts: [{ title: 'ok' }, { title: 'past', scheduledAt: past }, { title: '' }, 'nope'],
    });
    expect(status).toBe(400);
    const issues = json.error.details.issues as { row: number; path: string }[];
    expect(issues.map((i) => [i.row, i.path])).toEqual([
      [2, 'scheduledAt'],
      [3, 'title'],
      [4, 'title'],
    ]);
    expect(await postCount()).toBe(before);
  });

  it('answers a dry run with the issues and the posts as they would be, writing nothing', async () => {
    const before = await postCount();
    const eventsBefore = await eventCount();
    const bad = await csv(rowsCsv(5, { row: 2, scheduledAt: 'tomorrow' }), '?dryRun=true');
    expect(bad.status).toBe(200);
    expect(bad.json.data).toMatchObject({ dryRun: true, valid: false, ids: [] });
    expect(bad.json.data.issues.map((i: { row: number }) => i.row)).toEqual([2]);
    expect(bad.json.data.rows.map((r: { row: number }) => r.row)).toEqual([1, 3, 4, 5]);
    const good = await csv(rowsCsv(5), '?dryRun=true');
    expect(good.status).toBe(200);
    expect(good.json.data).toMatchObject({ dryRun: true, valid: true, count: 5, ids: [] });
    expect(await postCount()).toBe(before);
    expect(await eventCount()).toBe(eventsBefore);
    expect((await csv(rowsCsv(1), '?dryRun=yes')).status).toBe(400);
  });

  it('imports 1,000 rows in one go, and refuses 1,001 (CSV and JSON) writing nothing', async () => {
    const before = await postCount();
    const tooMany = await csv(rowsCsv(1001));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details.issues).toEqual([
      { path: 'posts', message: 'At most 1000 rows.' },
    ]);
    const tooManyJson = await jsonImport({
      posts: Array.from({ length: 1001 }, (_, i) => ({ title: `T${i}` })),
    });
    expect(tooManyJson.status).toBe(400);
    expect(await postCount()).toBe(before);
    const { status, json } = await csv(rowsCsv(1000));
    expect(status).toBe(201);
    expect(json.data.ids).toHaveLength(1000);
    expect(await postCount()).toBe(before + 1000);
  }, 180_000);

  it('refuses a CSV without a title column, a malformed CSV, an empty one and other types', async () => {
    const noTitle = await csv('name,content\nx,y\n');
    expect(noTitle.status).toBe(400);
    expect(noTitle.json.error.details.issues[0].path).toBe('title');
    const ragged = await csv('title,content\na,b,c\n');
    expect(ragged.status).toBe(400);
    expect(ragged.json.error.code).toBe('validation_error');
    expect((await csv('title\n')).status).toBe(400);
    expect((await jsonImport({ posts: [] })).status).toBe(400);
    expect((await jsonImport({ nope: 1 })).status).toBe(400);
    const xml = await h.call('POST', '/api/content/posts/import', {
      raw: '<posts/>',
      contentType: 'application/xml',
    });
    expect(xml.status).toBe(415);
    // JSON is application/json, in UTF-8 if a charset is said: other JSON-like types are 415.
    for (const type of ['application/vnd.api+json', 'application/json; charset=iso-8859-1']) {
      const other = await h.call('POST', '/api/content/posts/import', {
        raw: JSON.stringify({ posts: [{ title: 'x' }] }),
        contentType: type,
      });
      expect(other.status, type).toBe(415);
      expect(other.json.error.message, type).toMatch(/text\/csv or application\/json/);
    }
    const broken = await h.call('POST', '/api/content/posts/import', {
      raw: '{"posts": [',
      contentType: 'application/json',
    });
    expect(broken.json.error.code).toBe('invalid_json');
    const nul = await csv('title\nbad\u0000title\n');
    expect(nul.status).toBe(400);
  });

  it("says in plain words what is wrong with a CSV, never the parser's codes", async () => {
    const cases = [
      [
        'title,content\n"open,x\n',
        'A quoted cell is not closed: the file ends inside its quotes (line 2).',
      ],
      [
        'title,content\n"a"b,x\n',
        'A quoted cell goes on after its closing quote: write a quote inside a quoted cell twice, as "" (line 2).',
      ],
      ['title,content\na,b,c\n', 'This row has 3 cells where the header has 2 columns (line 2).'],
    ];
    for (const [text, message] of cases) {
      const { status, json } = await csv(text as string, '?dryRun=true');
      expect(status, text).toBe(400);
      expect(json.error).toMatchObject({
        code: 'validation_error',
        details: { issues: [{ path: '(csv)', message, line: 2 }] },
      });
      expect(JSON.stringify(json), text).not.toMatch(/CSV_/);
    }
    // Without a title column: the file's own columns, beside the ones an import reads.
    const noTitle = await csv('name,content\nx,y\n', '?dryRun=true');
    expect(noTitle.json.error.details.issues).toEqual([
      {
        path: 'title',
        line: 1,
        message:
          'The file\'s columns are "name", "content"; an import reads title, content, tags, scheduledAt, channels, and needs title.',
      },
    ]);
  });

  it("takes off an export's formula guard, so an export imports back as it was", async () => {
    const { json } = await csv("title,content\n'=1+1,'-minus\n'plain,x\n");
    const [formula, plain] = await Promise.all(
      json.data.ids.map((id: string) => h.call('GET', `/api/content/posts/${id}`)),
    );
    expect(formula?.json.data).toMatchObject({ title: '=1+1', content: '-minus' });
    expect(plain?.json.data.title).toBe("'plain");
  });

  it("needs content:write, for any member; imports into the caller's account only", async () => {
    const reader = (await h.keyFor(h.main.adminId, ['content:read', 'read', 'write'])).secret;
    const refused = await csv('title\nx\n', '', reader);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect((await csv('title\nx\n', '', null)).status).toBe(401);
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@import.test', password: 'a-long-password' },
    });
    const member = (await h.keyFor(created.json.id, ['content:write'])).secret;
    expect((await csv('title\nby a member\n', '', member)).status).toBe(201);
    const theirs = await postCount(other.accountId);
    expect((await csv('title\nfor Globex\n', '', other.token)).status).toBe(201);
    expect(await postCount(other.accountId)).toBe(theirs + 1);
  });

  it('refuses a CSV that is not UTF-8 (400, never U+FFFD), as a JSON body, or declared in another charset (415)', async () => {
    const before = await postCount();
    const latin1 = Buffer.concat([
      Buffer.from('title\ncaf'),
      Buffer.from([0xe9]),
      Buffer.from(' latin1\n'),
    ]);
    for (const query of ['', '?dryRun=true']) {
      const refused = await csv(latin1, query);
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('invalid_json');
      expect(refused.json.error.message).toMatch(/not UTF-8.*save it as UTF-8.*CSV UTF-8/);
    }
    // A character cut off at the end of the file, and one split between two chunks of the body.
    expect((await csv(Buffer.from([...Buffer.from('title\nab'), 0xc3]))).status).toBe(400);
    const json = await h.call('POST', '/api/content/posts/import', {
      raw: Buffer.from([...Buffer.from('{"posts":[{"title":"caf'), 0xe9, ...Buffer.from('"}]}')]),
      contentType: 'application/json',
    });
    expect(json.json.error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringMatching(/UTF-8/),
    });
    for (const type of ['text/csv; charset=iso-8859-1', 'text/csv; charset="windows-1252"']) {
      const declared = await csv('title\nplain\n', '', undefined, type);
      expect(declared.status, type).toBe(415);
      expect(declared.json.error.message).toMatch(/save the file as UTF-8/);
    }
    expect(await postCount()).toBe(before);
    const utf8 = await csv(
      Buffer.from('title\ncafé ✓\n'),
      '',
      undefined,
      'text/csv; charset=UTF-8',
    );
    expect(utf8.status).toBe(201);
    const post = await h.call('GET', `/api/content/posts/${utf8.json.data.ids[0]}`);
    expect(post.json.data.title).toBe('café ✓');
  });

  it('reads a CSV streamed in chunks that split a character', async () => {
    const bytes = Buffer.from('title\nnaïve café\n');
    const split = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, split));
        controller.enqueue(bytes.subarray(split));
        controller.close();
      },
    });
    const res = await h.handle(
      new Request('http://localhost:3000/api/content/posts/import?dryRun=true', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.main.token}`, 'content-type': 'text/csv' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).data.rows[0].title).toBe('naïve café');
  });

  it('refuses a scheduled row without scheduledAt, as a create does, by row', async () => {
    const create = await h.call('POST', '/api/content/posts', {
      body: { title: 'x', status: 'scheduled' },
    });
    expect(create.status).toBe(400);
    const before = await postCount();
    const { status, json } = await jsonImport({
      posts: [{ title: 'fine' }, { title: 'x', status: 'scheduled' }],
    });
    expect(status).toBe(400);
    expect(json.error.details.issues).toEqual([
      { row: 2, path: 'scheduledAt', message: create.json.error.message },
    ]);
    expect(await postCount()).toBe(before);
    // A JSON export's draft (status and a null time) still imports.
    const draft = await jsonImport({ posts: [{ title: 'd', status: 'draft', scheduledAt: null }] });
    expect(draft.status, JSON.stringify(draft.json)).toBe(201);
    expect(draft.json.data.rows[0].status).toBe('draft');
  });

  it("answers a control character in a cell as that row's issue, in a dry run too", async () => {
    const text = 'title,content\nfine,x\na\u0000b,y\n';
    const refused = await csv(text);
    expect(refused.status).toBe(400);
    expect(refused.json.error.details.issues).toEqual([
      { row: 2, line: 3, path: 'title', message: expect.any(String) },
    ]);
    const dry = await csv(text, '?dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.json.data).toMatchObject({
      valid: false,
      issues: [{ row: 2, line: 3, path: 'title' }],
    });
    const json = await jsonImport({
      posts: [{ title: 'ok' }, { title: 'ok', content: 'a\u0000' }],
    });
    expect(json.json.error.details.issues).toEqual([
      { row: 2, path: 'content', message: expect.any(String) },
    ]);
  });

  it('refuses a CSV header naming a column twice, naming it', async () => {
    const before = await postCount();
    for (const text of ['title,title\na,b\n', 'title,content, content\na,b,c\n', 'title,title\n']) {
      const { status, json } = await csv(text, '?dryRun=true');
      expect(status, text).toBe(400);
      expect(json.error.details.issues, text).toEqual([
        {
          path: '(csv)',
          line: 1,
          message: expect.stringMatching(/^The column "(title|content)" is named twice/),
        },
      ]);
    }
    // Empty names (trailing commas) name no column.
    expect((await csv('title,,\na,,\n', '?dryRun=true')).status).toBe(200);
    expect(await postCount()).toBe(before);
  });

  it('replays an Idempotency-Key retry instead of importing twice', async () => {
    const before = await postCount();
    const headers = { 'idempotency-key': 'import-once' };
    const send = () =>
      h.call('POST', '/api/content/posts/import', {
        raw: 'title\nonce\n',
        contentType: 'text/csv',
        headers,
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json.data.ids).toEqual(first.json.data.ids);
    expect(await postCount()).toBe(before + 1);
  });
});
