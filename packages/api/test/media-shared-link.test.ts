import { sharedMediaUrl } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { fixture, sha256, upload } from './media-fixtures';

/**
 * The links the publishing engine hands to networks that fetch media by URL (Instagram,
 * Threads): the bytes without a credential while the signature holds, for an hour at most.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ORIGIN = 'http://localhost:3000';

async function uploaded(name = 'photo.jpg') {
  const { status, json } = await upload(h, fixture(name), { filename: name });
  expect(status).toBe(201);
  return json.data as { id: string; sha256: string };
}

/** A request with no credential at all, as Meta's fetcher sends it. */
async function fetchLink(link: string, method = 'GET', headers: Record<string, string> = {}) {
  const res = await h.handle(new Request(link, { method, headers }));
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

const tamper = (link: string, name: string, value: string) => {
  const url = new URL(link);
  url.searchParams.set(name, value);
  return url.toString();
};

describe('GET /api/content/media/{id}/shared', () => {
  it('serves the bytes to anyone holding the link, with the type, ETag and sandbox of …/content', async () => {
    const m = await uploaded();
    const link = sharedMediaUrl(ORIGIN, m.id);
    expect(link).toMatch(/\/api\/content\/media\/med_\w+\/shared\?expires=\d+&signature=[\w-]+$/);
    const res = await fetchLink(link);
    expect(res.status).toBe(200);
    expect(sha256(res.bytes)).toBe(m.sha256);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('etag')).toBe(`"${m.sha256}"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const head = await fetchLink(link, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(res.bytes.length));
    const again = await fetchLink(link, 'GET', { 'if-none-match': `"${m.sha256}"` });
    expect(again.status).toBe(304);
  });

  it('answers an expired, altered, borrowed or over-long link 404 in the envelope, as for no file', async () => {
    const [m, other] = [await uploaded(), await uploaded('pixel.png')];
    const link = sharedMediaUrl(ORIGIN, m.id);
    const expired = sharedMediaUrl(ORIGIN, m.id, { now: new Date(Date.now() - 3601_000) });
    const signature = new URL(link).searchParams.get('signature') as string;
    const expires = new URL(link).searchParams.get('expires') as string;
    const refused = [
      expired,
      tamper(link, 'signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
      tamper(link, 'expires', String(Number(expires) + 60)),
      tamper(link, 'expires', String(Number(expires) + 86_400)),
      // Another file's signature does not open this one.
      `${ORIGIN}/api/content/media/${other.id}/shared${new URL(link).search}`,
      `${ORIGIN}/api/content/media/${m.id}/shared`,
      tamper(link, 'expires', '1e12'),
    ];
    for (const bad of refused) {
      const res = await fetchLink(bad);
      expect(res.status, bad).toBe(404);
      const body = JSON.parse(res.bytes.toString());
      expect(body).toMatchObject({ success: false, error: { code: 'resource_not_found' } });
      expect(res.bytes.toString()).not.toContain(m.sha256);
    }
  });

  it('answers 404 once the file is deleted, and the authenticated …/content still wants a credential', async () => {
    const m = await uploaded();
    const link = sharedMediaUrl(ORIGIN, m.id);
    const anonymous = await h.handle(new Request(`${ORIGIN}/api/content/media/${m.id}/content`));
    expect(anonymous.status).toBe(401);
    expect((await h.call('DELETE', `/api/content/media/${m.id}`)).status).toBe(204);
    const res = await fetchLink(link);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.bytes.toString()).error.code).toBe('resource_not_found');
  });

  it('is described in the OpenAPI document as taking no credential', async () => {
    const { json } = await h.call('GET', '/api/openapi.json');
    const operation = json.paths['/api/content/media/{id}/shared'].get;
    expect(operation.security).toEqual([]);
    expect(operation.responses).toHaveProperty('404');
  });
});
