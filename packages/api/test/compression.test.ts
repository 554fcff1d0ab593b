/**
 * Compression of the API's answers through the app's own listener, server and REST door:
 * raw bytes over a socket, so that what the client receives is what is checked.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiListener, createHttpServer } from '../src/server';
import {
  COMPRESS_INLINE_MAX_BYTES,
  COMPRESS_MIN_BYTES,
  compressBody,
  negotiateEncoding,
} from '../src/server/compression';
import { createRestDoor } from '../src/rest';
import { startHarness, type Harness } from './harness';
import { fixture, upload } from './media-fixtures';
import { createPost } from './posts-fixtures';
import { testRateLimiter } from './rate-limiter';

let h: Harness;
let server: ReturnType<typeof createHttpServer>;
let port: number;
const rateLimiter = testRateLimiter();

beforeAll(async () => {
  h = await startHarness();
  server = createHttpServer();
  server.on(
    'request',
    createApiListener({
      mounts: [
        [
          '/api',
          createRestDoor({ getDatabase: async () => h.database, rateLimiter, storage: h.storage }),
        ],
      ],
      webPaths: [],
      web: (_req, res) => res.writeHead(404).end(),
      corsOrigins: new Set(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await rateLimiter.close();
  await h?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function get(path: string, acceptEncoding?: string, token: string | null = h.main.token) {
  return new Promise<Raw>((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    if (token) headers.authorization = `Bearer ${token}`;
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const decoded = (raw: Raw) =>
  raw.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(raw.bytes)
    : raw.headers['content-encoding'] === 'gzip'
      ? gunzipSync(raw.bytes)
      : raw.bytes;

describe('compression of API answers', () => {
  it('compresses a large JSON answer in the encoding the client prefers, with its length', async () => {
    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.byteLength).toBeGreaterThan(100_000);
    expect(plain.headers.vary).toContain('Accept-Encoding');

    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
    ] as const) {
      const raw = await get('/api/openapi.json', accept);
      expect(raw.status).toBe(200);
      expect(raw.headers['content-encoding'], accept).toBe(expected);
      expect(Number(raw.headers['content-length'])).toBe(raw.bytes.byteLength);
      // Several times smaller, and the same document once decoded.
      expect(raw.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 5);
      expect(decoded(raw).equals(plain.bytes)).toBe(true);
      expect(raw.headers.vary).toContain('Accept-Encoding');
    }
    for (const accept of ['identity', 'deflate', 'gzip;q=0, br;q=0', '*;q=0']) {
      const raw = await get('/api/openapi.json', accept);
      expect(raw.headers['content-encoding'], accept).toBeUndefined();
      expect(raw.bytes.equals(plain.bytes)).toBe(true);
    }
  });

  it('leaves small answers as they are', async () => {
    const refused = await get('/api/users', 'gzip, br', null);
    expect(refused.status).toBe(401);
    expect(refused.bytes.byteLength).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString()).error.code).toBe('unauthorized');
  });

  it('never compresses media bytes', async () => {
    // A PDF well over the threshold, and very compressible: still sent as stored.
    const pdf = Buffer.concat([fixture('doc.pdf'), Buffer.from(`\n%${'a'.repeat(20_000)}\n`)]);
    const { status, json } = await upload(h, pdf, { filename: 'big.pdf', type: 'application/pdf' });
    expect(status).toBe(201);
    const raw = await get(`/api/content/media/${json.data.id}/content`, 'gzip, br');
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.bytes.equals(pdf)).toBe(true);
  });

  it('compresses a streamed export as it streams', async () => {
    for (let i = 0; i < 30; i += 1) {
      await createPost(h, {
        title: `Compressed ${i}`,
        content: 'The same words again. '.repeat(20),
      });
    }
    const raw = await get('/api/content/posts/export?format=csv', 'gzip');
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers['content-length']).toBeUndefined();
    const records = parse(decoded(raw).toString(), { columns: true }) as { title: string }[];
    expect(records.map((r) => r.title)).toContain('Compressed 29');
    expect(raw.bytes.byteLength).toBeLessThan(decoded(raw).byteLength / 5);
  });

  it('compresses a page on the event loop and a large body in the pool, both decodable', async () => {
    const page = Buffer.from(JSON.stringify({ data: Array(40).fill({ name: 'a user' }) }));
    const large = Buffer.alloc(COMPRESS_INLINE_MAX_BYTES * 4, '{"name":"a user"}');
    expect(page.byteLength).toBeLessThan(COMPRESS_INLINE_MAX_BYTES);
    for (const body of [page, large]) {
      expect(brotliDecompressSync(await compressBody(body, 'br')).equals(body)).toBe(true);
      expect(gunzipSync(await compressBody(body, 'gzip')).equals(body)).toBe(true);
    }
  });

  it('reads Accept-Encoding by its weights', () => {
    expect(negotiateEncoding(undefined)).toBeUndefined();
    expect(negotiateEncoding('')).toBeUndefined();
    expect(negotiateEncoding('gzip;q=0.8, br;q=0.9')).toBe('br');
    expect(negotiateEncoding('GZIP')).toBe('gzip');
    expect(negotiateEncoding('br;q=abc, gzip')).toBe('gzip');
    expect(negotiateEncoding('*;q=0.5, br;q=0')).toBe('gzip');
  });
});
