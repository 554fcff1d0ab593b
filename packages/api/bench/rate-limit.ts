/**
 * What the rate limiter adds to a request, with Redis on loopback: the REST door with the
 * limiter on and off in the same run, requests interleaved so both see the same conditions,
 * then the limiter call alone. Run from the root: `npm run bench:rate-limit`.
 * REDIS_URL (default redis://127.0.0.1:6379), DATABASE_URL (default in-memory PGlite),
 * BENCH_REQUESTS (default 3000 per variant).
 */
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey } from '@chorus/services';
import {
  createRateLimiter,
  memoryStore,
  redisStore,
  WINDOW_MS,
  type RateLimiter,
  type WindowStore,
} from '../src/rate-limit';
import { createRestHandler } from '../src/rest';

process.env.LOG_LEVEL ??= 'silent';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const WARM_UP = 300;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// Budgets no run can spend: the benchmark measures counting, not refusing.
const limits = { free: { read: 1e9, write: 1e9 } };

/** "Off": a store that answers at once and counts nothing. */
const offStore: WindowStore = {
  kind: 'memory',
  limit: async ({ limit }) => ({ success: true, limit, remaining: limit, reset: WINDOW_MS }),
  peek: async ({ limit }) => ({ success: true, limit, remaining: limit, reset: WINDOW_MS }),
  ping: async () => {},
  close: async () => {},
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};
const ms = (value: number) => value.toFixed(3).padStart(9);

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main() {
  const database = await createTestDatabase();
  const { adminId } = await createAccount(database.db, {
    name: 'Bench',
    admin: {
      email: `bench-${randomBytes(4).toString('hex')}@example.test`,
      password: 'benchmark pw',
    },
  });
  const { secret } = await createApiKey({
    db: database.db,
    userId: adminId,
    name: 'bench',
    scopes: ['read'],
    environment: 'test',
  });
  const prefix = `chorus-bench:${randomBytes(4).toString('hex')}`;
  const on = createRateLimiter({ store: redisStore({ url: redisUrl }, prefix), limits });
  const off = createRateLimiter({ store: offStore, limits });
  const door = (rateLimiter: RateLimiter) =>
    createRestHandler({ getDatabase: async () => database, rateLimiter });
  const doors = { on: door(on), off: door(off) };
  const request = (handler: (req: Request) => Promise<Response>) => async () => {
    const res = await handler(
      new Request(`http://localhost/api/users/${adminId}`, {
        headers: { authorization: `Bearer ${secret}` },
      }),
    );
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
    await res.arrayBuffer();
  };

  for (let i = 0; i < WARM_UP; i++) {
    await request(doors.on)();
    await request(doors.off)();
  }
  const samples = { on: [] as number[], off: [] as number[] };
  for (let i = 0; i < REQUESTS; i++) {
    // Alternate which goes first, so neither always meets a warmer cache.
    const order = i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const variant of order) samples[variant].push(await timed(request(doors[variant])));
  }

  const bucket = { key: `bench:${randomBytes(4).toString('hex')}`, limit: 1e9 };
  const memory = createRateLimiter({ store: memoryStore(), limits });
  const alone = { redis: [] as number[], memory: [] as number[] };
  for (let i = 0; i < WARM_UP; i++) await on.check(bucket);
  for (let i = 0; i < REQUESTS; i++) {
    alone.redis.push(await timed(() => on.check(bucket)));
    alone.memory.push(await timed(() => memory.check(bucket)));
  }

  const doorOn = stats(samples.on);
  const doorOff = stats(samples.off);
  const rows: [string, { p50: number; p99: number }][] = [
    ['REST door, limiter off', doorOff],
    ['REST door, limiter on (Redis)', doorOn],
    ['added by the limiter', { p50: doorOn.p50 - doorOff.p50, p99: doorOn.p99 - doorOff.p99 }],
    ['limiter call alone, Redis', stats(alone.redis)],
    ['limiter call alone, in-process', stats(alone.memory)],
  ];
  console.log(
    `rate-limit benchmark: ${REQUESTS} requests per variant (after ${WARM_UP} warm-up), ` +
      `GET /api/users/{id} with an API key, Redis ${redisUrl}, database ${database.driver}`,
  );
  console.log(`${''.padEnd(32)}  p50 (ms)  p99 (ms)`);
  for (const [name, { p50, p99 }] of rows) console.log(`${name.padEnd(32)} ${ms(p50)} ${ms(p99)}`);

  await Promise.all([on.close(), memory.close()]);
  await database.close();
}

await main();
