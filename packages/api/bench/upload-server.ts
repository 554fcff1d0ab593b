/**
 * The server half of `bench/upload-memory.ts`, in a process of its own so that only the
 * server's memory is measured: the REST door on node:http (request bodies streamed into a
 * fetch `Request`, as Next and plain Node servers do), plus `/baseline`, which streams the
 * raw body to a file and nothing else, and `/buffered`, which holds the whole body (the
 * mistake the measure must catch). `/memory/reset` and `/memory/peak` read its memory.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey } from '@chorus/services';
import { localDiskStorage } from '@chorus/storage';
import { createRateLimiter, memoryStore } from '../src/rate-limit';
import { createRestHandler } from '../src/rest';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-media-'));
const database = await createTestDatabase();
const { adminId } = await createAccount(database.db, {
  name: 'Bench',
  admin: { name: 'Bench', email: 'bench@example.com', password: 'bench-password' },
});
const { secret } = await createApiKey({
  db: database.db,
  userId: adminId,
  name: 'bench',
  scopes: ['content:write'],
  environment: 'test',
});
const handle = createRestHandler({
  getDatabase: async () => database,
  rateLimiter: createRateLimiter({ store: memoryStore(), limits: { free: { write: 1e9 } } }),
  storage: localDiskStorage(join(dir, 'media')),
});

/**
 * RSS, and what is live: the V8 heap plus buffers outside it (`external`), right after a full
 * collection, so that garbage awaiting collection does not count, only what is held.
 */
const usage = () => {
  gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, live: heapUsed + external };
};
let baseline = { rss: 0, live: 0 };
let peak = baseline;
let sampling = false;
const sample = () => {
  if (!sampling) return;
  const now = usage();
  peak = { rss: Math.max(peak.rss, now.rss), live: Math.max(peak.live, now.live) };
};
setInterval(sample, 50).unref();

const toRequest = (req: IncomingMessage) =>
  new Request(`http://127.0.0.1${req.url}`, {
    method: req.method,
    headers: req.headers as Record<string, string>,
    body: req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);

const server = createServer((req, res) => {
  void (async () => {
    if (req.url === '/memory/reset') {
      sampling = false;
      baseline = peak = usage();
      sampling = true;
      return res.end(JSON.stringify({ baseline }));
    }
    if (req.url === '/memory/peak') {
      sampling = false;
      return res.end(JSON.stringify({ baseline, peak }));
    }
    if (req.url === '/baseline') {
      await pipeline(req, createWriteStream(join(dir, `baseline-${Date.now()}-${Math.random()}`)));
      return res.end('{}');
    }
    // What must not happen, to show that the measure sees it: the whole body in memory.
    if (req.url === '/buffered') {
      const body = await new Response(Readable.toWeb(req) as ReadableStream).arrayBuffer();
      sample();
      return res.end(JSON.stringify({ bytes: body.byteLength }));
    }
    const response = await handle(toRequest(req));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  })().catch((error: unknown) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address?.port, token: secret })}\n`,
  );
});
process.on('SIGTERM', () => {
  server.close();
  void database
    .close()
    .then(() => rm(dir, { recursive: true, force: true }))
    .then(() => process.exit(0));
});
