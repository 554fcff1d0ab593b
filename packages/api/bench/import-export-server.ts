/**
 * The server half of `bench/import-export.ts`, in a process of its own so that only the
 * server's memory is measured: the REST door behind the app's own listener (real sockets,
 * streamed bodies both ways), over a database holding 100,000 posts of one account.
 * `/memory/reset` and `/memory/peak` read its RSS, sampled every 20 ms.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localDiskStorage } from '@chorus/storage';
import { createApiListener, createHttpServer } from '../src/server';
import { createTestDatabase } from '@chorus/db/testing';
import { posts, sql } from '@chorus/db';
import { createAccount, createApiKey } from '@chorus/services';
import { createRateLimiter, memoryStore } from '../src/rate-limit';
import { createRestDoor } from '../src/rest';

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const database = await createTestDatabase();
const { accountId, adminId } = await createAccount(database.db, {
  name: 'Bench',
  admin: { name: 'Bench', email: 'bench@example.com', password: 'bench-password' },
});
const { secret } = await createApiKey({
  db: database.db,
  userId: adminId,
  name: 'bench',
  scopes: ['content:read', 'content:write'],
  environment: 'test',
});
// Posts of a realistic size (a title, 280 characters, two tags), written directly.
await database.db.execute(sql`
  insert into ${posts} (id, account_id, title, content, tags, created_at, updated_at)
  select 'post_bench' || lpad(i::text, 7, '0'), ${accountId}, 'Bench post ' || i,
         repeat('x', 280), array['bench', 'tag' || (i % 10)],
         now() - interval '1 day' - i * interval '1 second', now()
  from generate_series(1, ${POSTS}) as i`);

const door = createRestDoor({
  getDatabase: async () => database,
  // The door hands every handler route its storage; these routes never touch it.
  storage: localDiskStorage(await mkdtemp(join(tmpdir(), 'chorus-bench-io-'))),
  rateLimiter: createRateLimiter({
    store: memoryStore(),
    limits: { free: { read: 1e9, write: 1e9 } },
  }),
});

let baseline = 0;
let peak = 0;
let sampling = false;
const rss = () => {
  gc();
  return process.memoryUsage().rss;
};
setInterval(() => {
  if (sampling) peak = Math.max(peak, process.memoryUsage().rss);
}, 20).unref();

const listener = createApiListener({
  mounts: [['/api', door]],
  webPaths: [],
  web: (req, res) => {
    if (req.url === '/memory/reset') {
      baseline = peak = rss();
      sampling = true;
      return res.end(JSON.stringify({ baseline }));
    }
    if (req.url === '/memory/peak') {
      sampling = false;
      return res.end(JSON.stringify({ baseline, peak }));
    }
    res.statusCode = 404;
    res.end();
  },
});
const server = createHttpServer();
server.on('request', listener);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ port, token: secret, posts: POSTS }));
});
process.on('SIGTERM', () => {
  server.close();
  void database.close().then(() => process.exit(0));
});
