/**
 * HTTP semantics clients and caches rely on: Location on 201, ETag and If-None-Match on JSON
 * reads, byte ranges of media.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/table';
import { startHarness, type Harness } from './harness';
import { fetchContent, fixture, upload } from './media-fixtures';

let h: Harness;
beforeAll(async () => {
  // A webhook on loopback (never delivered to here: no event is due).
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  h = await startHarness();
});
afterAll(async () => {
  delete process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS;
  await h.close();
});

describe('Location on 201', () => {
  it('names where each created resource is read, and reading it there works', async () => {
    const created = [
      await h.call('POST', '/api/users', {
        body: { name: 'Ada', email: 'ada-location@acme.test', password: 'a-long-password' },
      }),
      await h.call('POST', '/api/content/posts', { body: { title: 'Located', content: 'Here' } }),
      await h.call('POST', '/api/webhooks', {
        body: { url: 'http://127.0.0.1:9/in', events: ['*'] },
      }),
    ];
    const media = await upload(h, fixture('pixel.png'), { filename: 'located.png' });
    expect(media.status).toBe(201);
    const answers = [
      ...created.map(({ status, headers, json }) => ({ status, headers, json })),
      media,
    ];
    const expected = [
      '/api/users/',
      '/api/content/posts/',
      '/api/webhooks/',
      '/api/content/media/',
    ];
    for (const [i, { status, headers, json }] of answers.entries()) {
      expect(status, JSON.stringify(json)).toBe(201);
      const id = (json.data ?? json).id as string;
      expect(headers.get('location')).toBe(`${expected[i]}${id}`);
      const read = await h.call('GET', headers.get('location') ?? '');
      expect(read.status).toBe(200);
      expect((read.json.data ?? read.json).id).toBe(id);
    }
  });
});

describe('percent-encoded path parameters', () => {
  it('read the same resource as the plain id, as any URL library would send it', async () => {
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Encoded', email: 'encoded-path@acme.test', password: 'a-long-password' },
    });
    const id = created.json.id as string;
    const encoded = [...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const read = await h.call('GET', `/api/users/${encoded}`);
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    expect(read.json.id).toBe(id);
  });
});

describe('Location on every 201 whose resource has a GET', () => {
  it('is on exactly the creates the test above reads back, and the document says so', async () => {
    const creates = restRoutes.routes.filter(
      (route) => route.meta.successStatus === 201 || route.meta.successStatuses?.[201],
    );
    const readable = creates.filter((route) => {
      const read = restRoutes.match('GET', `${route.path}/x`);
      return read !== null && 'route' in read;
    });
    // A new create with a GET of its own joins the test above.
    expect(readable.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'POST /api/content/media',
      'POST /api/content/posts',
      'POST /api/users',
      'POST /api/webhooks',
    ]);
    const { json: doc } = await h.call('GET', '/api/openapi.json', { token: null });
    for (const route of creates) {
      const created = doc.paths[route.path][route.method.toLowerCase()].responses['201'];
      expect(created.headers.Location !== undefined, route.path).toBe(readable.includes(route));
    }
  });
});

describe('ETag and If-None-Match on JSON reads', () => {
  it('answers 304 without a body while the representation is the same, 200 once it changes', async () => {
    const post = await h.call('POST', '/api/content/posts', {
      body: { title: 'Tagged', content: 'v1' },
    });
    const path = `/api/content/posts/${post.json.data.id}`;
    const first = await h.call('GET', path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);

    const again = await h.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.res.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-request-id')).toBeTruthy();
    for (const header of [`"other", ${etag}`, '*', etag.slice(2)]) {
      expect((await h.call('GET', path, { headers: { 'if-none-match': header } })).status).toBe(
        304,
      );
    }
    const head = await h.call('HEAD', path, { headers: { 'if-none-match': etag } });
    expect(head.status).toBe(304);

    expect((await h.call('GET', path, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(
      200,
    );
    const updated = await h.call('PUT', path, { body: { content: 'v2' } });
    expect(updated.status).toBe(200);
    // Only reads are conditional: a write's answer carries no ETag.
    expect(updated.headers.get('etag')).toBeNull();
    const changed = await h.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.json.data.content).toBe('v2');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('tags lists too, and never an error', async () => {
    const list = await h.call('GET', '/api/users');
    expect(list.headers.get('etag')).toMatch(/^W\//);
    const missing = await h.call('GET', '/api/users/usr_00000000000000000000000000', {
      headers: { 'if-none-match': '*' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('byte ranges of media', () => {
  const clip = fixture('clip.mp4');
  let id: string;
  beforeAll(async () => {
    const { status, json } = await upload(h, clip, { filename: 'clip.mp4' });
    expect(status).toBe(201);
    id = json.data.id;
  });

  it('says it serves ranges, and serves one as 206 with its Content-Range', async () => {
    const whole = await fetchContent(h, id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const head = await fetchContent(h, id, { method: 'HEAD' });
    expect(head.headers.get('accept-ranges')).toBe('bytes');

    const size = clip.byteLength;
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-13', size - 13, size - 1],
      ['bytes=10-999999', 10, size - 1],
      ['bytes=0-0', 0, 0],
    ] as const) {
      const part = await fetchContent(h, id, { headers: { range } });
      expect(part.status, range).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.headers.get('content-length')).toBe(String(end - start + 1));
      expect(part.bytes.equals(clip.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for a range past the end, and the whole for what it does not serve', async () => {
    const size = clip.byteLength;
    for (const range of [`bytes=${size}-`, 'bytes=-0']) {
      const refused = await fetchContent(h, id, { headers: { range } });
      expect(refused.status, range).toBe(416);
      expect(refused.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(JSON.parse(refused.bytes.toString()).error.code).toBe('range_not_satisfiable');
    }
    // Several ranges, another unit, nonsense: the whole body, as the RFC allows.
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=x-']) {
      const whole = await fetchContent(h, id, { headers: { range } });
      expect(whole.status, range).toBe(200);
      expect(whole.bytes.equals(clip)).toBe(true);
    }
  });

  it('honours If-Range: the range while the ETag is current, the whole body otherwise', async () => {
    const { headers } = await fetchContent(h, id, { method: 'HEAD' });
    const etag = headers.get('etag') ?? '';
    const current = await fetchContent(h, id, {
      headers: { range: 'bytes=0-9', 'if-range': etag },
    });
    expect(current.status).toBe(206);
    const stale = await fetchContent(h, id, {
      headers: { range: 'bytes=0-9', 'if-range': '"stale"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.bytes.equals(clip)).toBe(true);
  });
});
