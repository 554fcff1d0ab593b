import { readdir } from 'node:fs/promises';
import type { Principal } from '@chorus/auth';
import { eq, events } from '@chorus/db';
import { startS3Server } from '@chorus/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHandler } from '../src/rest';
import { startHarness, type Harness } from './harness';
import { fetchContent, fixture, upload } from './media-fixtures';
import { testRateLimiter } from './rate-limiter';

/** Stands in for the web app's session reader: a cookie naming the main admin. */
let sessionOf: Principal | null = null;
let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
beforeAll(async () => {
  h = await startHarness({
    sessionPrincipal: async (req) =>
      req.headers.get('cookie') === 'session=valid' ? sessionOf : null,
  });
  other = await h.newAccount('Globex', 'admin@globex.test');
  sessionOf = h.session();
});
afterAll(() => h.close());

async function uploaded(name = 'pixel.png', altText?: string) {
  const { status, json } = await upload(h, fixture(name), { filename: name, altText });
  expect(status).toBe(201);
  return json.data as { id: string; url: string; altText: string | null; sha256: string };
}

describe('GET /api/content/media', () => {
  it('lists the account’s media newest first in the general envelope', async () => {
    const a = await uploaded('pixel.png');
    const b = await uploaded('pic.gif');
    const { status, json } = await h.call('GET', '/api/content/media?limit=1');
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.data.map((m: { id: string }) => m.id)).toEqual([b.id]);
    expect(json.meta.pagination).toEqual({
      total: expect.any(Number),
      count: 1,
      perPage: 1,
      currentPage: 1,
      totalPages: json.meta.pagination.total,
      // More follow (a is older): the next page starts after b.
      nextCursor: b.id,
    });
    const all = await h.call('GET', '/api/content/media?limit=100');
    expect(all.json.data.map((m: { id: string }) => m.id)).toEqual(
      expect.arrayContaining([a.id, b.id]),
    );
  });

  it('defaults to 25 per page, answers an empty page past the last, refuses bad page sizes', async () => {
    expect((await h.call('GET', '/api/content/media')).json.meta.pagination.perPage).toBe(25);
    const past = await h.call('GET', '/api/content/media?page=999');
    expect(past.status).toBe(200);
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.pagination.count).toBe(0);
    for (const query of ['limit=0', 'limit=101', 'page=0', 'limit=abc']) {
      const { status, json } = await h.call('GET', `/api/content/media?${query}`);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('validation_error');
    }
  });
});

describe('GET, PUT, DELETE /api/content/media/{id}', () => {
  it('gets one record', async () => {
    const m = await uploaded();
    const { status, json } = await h.call('GET', `/api/content/media/${m.id}`);
    expect(status).toBe(200);
    expect(json).toEqual({
      success: true,
      data: expect.objectContaining({ id: m.id, url: m.url }),
    });
  });

  it('updates the alt text, clears it with null, keeps it when left out, refuses 1,001 characters', async () => {
    const m = await uploaded('pixel.png', 'before');
    const put = (body: unknown) => h.call('PUT', `/api/content/media/${m.id}`, { body });
    expect((await put({ altText: 'after' })).json.data.altText).toBe('after');
    expect((await put({ filename: 'ignored.exe' })).json.data).toMatchObject({
      altText: 'after',
      filename: 'pixel.png',
    });
    expect((await put({ altText: null })).json.data.altText).toBeNull();
    const long = await put({ altText: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.json.error.details.issues[0].path).toBe('altText');
  });

  it('deletes the record and its bytes with media.deleted, then answers 404', async () => {
    const m = await uploaded('photo.jpg');
    const filesBefore = (await readdir(h.storageDir, { recursive: true })).length;
    const { status, json } = await h.call('DELETE', `/api/content/media/${m.id}`);
    expect(status).toBe(204);
    expect(json).toBeUndefined();
    const entries = await readdir(h.storageDir, { recursive: true });
    expect(entries.length).toBe(filesBefore - 1);
    expect(entries.some((e) => e.endsWith(m.id))).toBe(false);
    const [event] = await h.db.select().from(events).where(eq(events.type, 'media.deleted'));
    expect(event?.payload.data.object).toMatchObject({ id: m.id, sha256: m.sha256 });
    expect((await h.call('GET', `/api/content/media/${m.id}`)).status).toBe(404);
    expect((await fetchContent(h, m.id)).status).toBe(404);
    expect((await h.call('DELETE', `/api/content/media/${m.id}`)).status).toBe(404);
  });

  it('leaves a deleted medium named on its posts, which do not change (docs/media.md)', async () => {
    const [kept, gone] = [await uploaded('pixel.png'), await uploaded('photo.jpg')];
    const created = await h.call('POST', '/api/content/posts', {
      body: { title: 'With media', content: 'c', mediaIds: [gone.id, kept.id] },
    });
    const post = created.json.data;
    expect((await h.call('DELETE', `/api/content/media/${gone.id}`)).status).toBe(204);
    const after = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(after.json.data).toEqual(post);
    const updates = await h.db.select().from(events).where(eq(events.type, 'post.updated'));
    expect(updates).toEqual([]);
    // Sent back as it is, nothing changes; checked, the post names the medium it lacks.
    const again = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { mediaIds: post.mediaIds },
    });
    expect(again.status).toBe(200);
    const checked = await h.call('POST', '/api/content/posts/validate', {
      body: { title: post.title, content: post.content, mediaIds: post.mediaIds },
    });
    expect(checked.json.data.valid).toBe(false);
    expect(checked.json.data.issues).toEqual([
      { path: 'mediaIds', message: `Unknown media: ${gone.id}.` },
    ]);
  });
});

describe('the bytes at url', () => {
  it('serve HEAD without a body, and 304 to a matching If-None-Match', async () => {
    const m = await uploaded('pic.webp');
    const head = await fetchContent(h, m.id, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(fixture('pic.webp').length));
    const etag = head.headers.get('etag') ?? '';
    expect(etag).toBe(`"${m.sha256}"`);
    const again = await fetchContent(h, m.id, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const full = await fetchContent(h, m.id);
    expect(full.headers.get('content-security-policy')).toContain('sandbox');
    expect(full.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('need credentials: the dashboard session (same-origin, checked by the web app) or a bearer token', async () => {
    const m = await uploaded();
    expect((await fetchContent(h, m.id, { token: null })).status).toBe(401);
    const withSession = await fetchContent(h, m.id, {
      token: null,
      headers: { cookie: 'session=valid' },
    });
    expect(withSession.status).toBe(200);
    expect(withSession.bytes.equals(fixture('pixel.png'))).toBe(true);
    // A bearer token decides when sent, even beside a session: a bad one is refused.
    const bad = await fetchContent(h, m.id, {
      token: 'csk_test_invalid',
      headers: { cookie: 'session=valid' },
    });
    expect(bad.status).toBe(401);
    // Only the media routes take the session; the rest of the REST API stays bearer-only.
    const list = await h.call('GET', '/api/content/media', {
      token: null,
      headers: { cookie: 'session=valid' },
    });
    expect(list.status).toBe(401);
  });
});

describe('tenancy', () => {
  it('treats another account’s media as unknown everywhere', async () => {
    const m = await uploaded();
    const as = { token: other.token };
    expect((await h.call('GET', `/api/content/media/${m.id}`, as)).status).toBe(404);
    expect(
      (await h.call('PUT', `/api/content/media/${m.id}`, { ...as, body: { altText: 'x' } })).status,
    ).toBe(404);
    expect((await h.call('DELETE', `/api/content/media/${m.id}`, as)).status).toBe(404);
    const bytes = await fetchContent(h, m.id, as);
    expect(bytes.status).toBe(404);
    expect(JSON.parse(bytes.bytes.toString()).error.code).toBe('resource_not_found');
    const list = await h.call('GET', '/api/content/media', as);
    expect(list.json.data).toEqual([]);
    expect((await h.call('GET', `/api/content/media/${m.id}`)).json.data.altText).toBeNull();
  });

  it('answers 404 to malformed ids', async () => {
    for (const id of ['nope', 'med_', '%00', 'med_' + 'Z'.repeat(300)]) {
      expect((await h.call('GET', `/api/content/media/${id}`)).status).toBe(404);
      expect((await fetchContent(h, id)).status).toBe(404);
    }
  });
});

describe('scopes', () => {
  it('needs content:read to read and content:write to write, nothing else', async () => {
    const m = await uploaded();
    const readOnly = (await h.keyFor(h.main.adminId, ['content:read'])).secret;
    const writeOnly = (await h.keyFor(h.main.adminId, ['content:write'])).secret;
    const plain = (await h.keyFor(h.main.adminId, ['read', 'write'])).secret;
    const refused = async (
      status: Promise<{ status: number; json?: { error: { code: string } } }>,
    ) => {
      const res = await status;
      expect(res.status).toBe(403);
    };
    await refused(upload(h, fixture('pixel.png'), { token: readOnly }));
    await refused(
      h.call('PUT', `/api/content/media/${m.id}`, { token: readOnly, body: { altText: 'x' } }),
    );
    await refused(h.call('DELETE', `/api/content/media/${m.id}`, { token: readOnly }));
    await refused(h.call('GET', '/api/content/media', { token: writeOnly }));
    await refused(h.call('GET', `/api/content/media/${m.id}`, { token: writeOnly }));
    await refused(fetchContent(h, m.id, { token: writeOnly }));
    await refused(h.call('GET', '/api/content/media', { token: plain }));
    await refused(upload(h, fixture('pixel.png'), { token: plain }));
    expect((await upload(h, fixture('pixel.png'), { token: writeOnly })).status).toBe(201);
    expect((await fetchContent(h, m.id, { token: readOnly })).status).toBe(200);
    const scoped = await upload(h, fixture('pixel.png'), { token: readOnly });
    expect(scoped.json.error).toMatchObject({
      code: 'insufficient_scope',
      details: { requiredScopes: ['content:write'] },
    });
  });

  it('routes unknown methods to 405 with Allow', async () => {
    const res = await h.call('PATCH', '/api/content/media');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});

describe('on S3-compatible storage (s3rver on loopback)', () => {
  it('uploads, serves and deletes through the bucket', async () => {
    const s3 = await startS3Server();
    const rateLimiter = testRateLimiter();
    try {
      const bucketDoor = createRestHandler({
        getDatabase: async () => h.database,
        rateLimiter,
        storage: s3.storage,
      });
      const { status, json } = await upload(h, fixture('photo.jpg'), { handler: bucketDoor });
      expect(status).toBe(201);
      const served = await fetchContent(h, json.data.id, { handler: bucketDoor });
      expect(served.bytes.equals(fixture('photo.jpg'))).toBe(true);
      expect(await s3.storage.get(`${h.main.accountId}/${json.data.id}`)).not.toBeNull();
      expect(
        (await h.call('DELETE', `/api/content/media/${json.data.id}`, { handler: bucketDoor }))
          .status,
      ).toBe(204);
      expect(await s3.storage.get(`${h.main.accountId}/${json.data.id}`)).toBeNull();
    } finally {
      await rateLimiter.close();
      await s3.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the multipart upload, the byte route and the record procedures', async () => {
    const { json: doc } = await h.call('GET', '/api/openapi.json', { token: null });
    const post = doc.paths['/api/content/media'].post;
    const multipart = post.requestBody.content['multipart/form-data'];
    expect(multipart.schema.required).toEqual(['file']);
    expect(Object.keys(multipart.schema.properties)).toEqual(['file', 'altText']);
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', '429']),
    );
    expect(post.responses['200']).toBeUndefined();
    expect(post.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MediaResponse',
    });
    expect(post.security).toEqual([{ bearerAuth: [] }, { oauth2: ['content:write'] }]);
    expect(Object.keys(post.responses['400'].content['application/json'].examples)).not.toContain(
      'invalid_json',
    );
    const content = doc.paths['/api/content/media/{id}/content'].get;
    expect(Object.keys(content.responses['200'].content)).toContain('image/png');
    expect(Object.keys(content.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
    expect(Object.keys(doc.paths['/api/content/media'])).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/content/media/{id}']).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    expect(doc.components.schemas.Media.properties.mimeType.enum).toContain('video/mp4');
  });
});
