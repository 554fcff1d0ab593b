/**
 * `npm run bench:api`: the REST door (and the tRPC door) of the production build against a
 * bare node:http + postgres.js + ioredis server doing the same work, on the same database,
 * driven alternately in one run so both see the same machine. Prints req/s, p50, p99, the
 * server's RSS (for Chorus, the process of the API's doors; Next's process is printed apart)
 * and the CPU time per request of the server, PostgreSQL and Redis, per variant, and the
 * ratios. Env: DATABASE_URL (a PostgreSQL server, default loopback), REDIS_URL (default
 * loopback), BENCH_SECONDS per run (10), BENCH_ROUNDS (2), BENCH_USERS (1000), BENCH_POSTS
 * (10000: the posts of the same account), BENCH_WARM_SECONDS (5: each server's unmeasured
 * warm-up on each row's load before its rounds),
 * BENCH_SOAK_SECONDS (0): then that long more of the users list at 64 connections on Chorus
 * alone, and the RSS after it (`BENCH_SOAK_SECONDS=300` for the 5-minute figure). Then what
 * compression costs the lists and saves on large answers (compression.ts).
 */
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { createTestDatabase } from '@chorus/db/testing';
import { compressionReport } from './compression';
import { drive, merge, type Load, type Measure } from './load';
import {
  cpuUse,
  freePort,
  processIn,
  runScript,
  serverRssMb,
  waitFor,
  type CpuUse,
} from './processes';
import { seedAccount, seedPosts } from './seed';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const USERS = Number(process.env.BENCH_USERS ?? 1000);
const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
/** The script of Chorus's processes under `npm start`, whose memory the table shows. */
const API_SERVER = 'src/serve.ts';
const WEB_SERVER = 'scripts/serve-web.ts';
const appDir = fileURLToPath(new URL('..', import.meta.url));
/** `npm start`'s workspace (apps/server), where its scripts run. */
const serverDir = fileURLToPath(new URL('../../server', import.meta.url));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

interface Scenario {
  name: string;
  connections: number;
  /** The load on one server (its base URL), or null when the baseline has no such door. */
  load: (base: string) => Omit<Load, 'connections' | 'seconds'>;
  baseline: (base: string) => Omit<Load, 'connections' | 'seconds'>;
}

/**
 * The runs of one variant, and the CPU they cost: two cores serve the load generator, the
 * server, PostgreSQL and Redis at once, so a server that does less itself but more in
 * PostgreSQL is no faster. The figures count all of PostgreSQL and Redis on the machine.
 */
class Runs {
  readonly measures: Measure[] = [];
  private cpu: CpuUse = { server: 0, postgres: 0, redis: 0 };

  constructor(private readonly pid: number) {}

  async drive(load: Load) {
    const before = cpuUse(this.pid);
    this.measures.push(await drive(load));
    const after = cpuUse(this.pid);
    for (const part of ['server', 'postgres', 'redis'] as const)
      this.cpu[part] += after[part] - before[part];
  }

  cpuPerRequest() {
    const requests = this.measures.reduce((sum, run) => sum + run.requests, 0);
    const each = (seconds: number) => ((seconds * 1e6) / Math.max(requests, 1)).toFixed(0);
    return `${each(this.cpu.server)} · ${each(this.cpu.postgres)} · ${each(this.cpu.redis)}`;
  }
}

async function main() {
  const database = await createTestDatabase();
  const { key, accountId } = await seedAccount(database.db, USERS);
  await seedPosts(database.db, accountId, POSTS);
  say(`seeded ${USERS} users and ${POSTS} posts in ${database.url ?? ''}`);
  const auth = { authorization: `Bearer ${key}` };
  let serial = 0;
  const newUser = () =>
    JSON.stringify({
      name: 'Bench User',
      email: `new-${process.pid}-${serial++}@bench.test`,
      password: 'a password long enough',
    });
  const listUsers = (base: string) => ({ url: `${base}/api/users?limit=50`, headers: auth });
  const createUsers = (base: string) => ({
    url: `${base}/api/users`,
    method: 'POST' as const,
    headers: { ...auth, 'content-type': 'application/json' },
    body: newUser,
  });
  const trpcList = (base: string) => ({
    url: `${base}/api/trpc/users.list?input=${encodeURIComponent(JSON.stringify({ limit: 50 }))}`,
    headers: auth,
  });
  const listPosts = (base: string) => ({
    url: `${base}/api/content/posts?limit=25`,
    headers: auth,
  });
  const scenarios: Scenario[] = [
    { name: 'GET /api/users?limit=50', connections: 1, load: listUsers, baseline: listUsers },
    { name: 'GET /api/users?limit=50', connections: 64, load: listUsers, baseline: listUsers },
    {
      name: 'GET /api/content/posts?limit=25',
      connections: 1,
      load: listPosts,
      baseline: listPosts,
    },
    {
      name: 'GET /api/content/posts?limit=25',
      connections: 64,
      load: listPosts,
      baseline: listPosts,
    },
    { name: 'tRPC users.list', connections: 64, load: trpcList, baseline: listUsers },
    { name: 'POST /api/users', connections: 16, load: createUsers, baseline: createUsers },
  ];

  const [productPort, baselinePort] = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    NODE_ENV: 'production' as const,
    CHORUS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    NEXTAUTH_SECRET: 'benchmark session secret, not for use elsewhere',
    // Budgets no run can spend: the benchmark measures counting, not refusing.
    RATE_LIMITS: JSON.stringify({ free: { read: 1e9, write: 1e9 } }),
    RATE_LIMIT_PREFIX: `bench:${process.pid}`,
    CHORUS_WORKER: 'false',
  };
  say('starting npm start (builds if needed) and the baseline');
  const servers: ChildProcess[] = [];
  try {
    const product = runScript(
      'src/start.ts',
      // With DATABASE_URL, a deployment: its public origin is required.
      { ...env, PORT: String(productPort), CHORUS_PUBLIC_URL: `http://127.0.0.1:${productPort}` },
      serverDir,
    );
    servers.push(product);
    const baseline = runScript(
      'bench/baseline-server.ts',
      { ...env, PORT: String(baselinePort) },
      appDir,
    );
    servers.push(baseline);
    await waitFor(`http://127.0.0.1:${baselinePort}/`, 30_000, baseline);
    await waitFor(`http://127.0.0.1:${productPort}/api/health`, 600_000, product);
    const bases = {
      product: `http://127.0.0.1:${productPort}`,
      baseline: `http://127.0.0.1:${baselinePort}`,
    };

    const pids = { product: processIn(product.pid ?? 0, API_SERVER), baseline: baseline.pid ?? 0 };
    const rows: string[] = [];
    for (const scenario of scenarios) {
      const runs = { product: new Runs(pids.product), baseline: new Runs(pids.baseline) };
      // Each server warms up on this very load, unmeasured: its code compiled (a JIT still
      // compiling spends a core's worth beside the requests), its pools and statements ready.
      const warm = { connections: scenario.connections, seconds: WARM_SECONDS };
      await drive({ ...scenario.baseline(bases.baseline), ...warm });
      await drive({ ...scenario.load(bases.product), ...warm });
      for (let round = 0; round < ROUNDS; round++) {
        const common = { connections: scenario.connections, seconds: SECONDS };
        await runs.baseline.drive({ ...scenario.baseline(bases.baseline), ...common });
        await runs.product.drive({ ...scenario.load(bases.product), ...common });
      }
      const [p, b] = [merge(runs.product.measures), merge(runs.baseline.measures)];
      const row = (label: string, m: Measure, rss: number, runsOf: Runs) =>
        `| ${scenario.name} | ${scenario.connections} | ${label} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${rss.toFixed(0)} | ${runsOf.cpuPerRequest()} | ${m.errors} |`;
      rows.push(row('baseline', b, serverRssMb(pids.baseline), runs.baseline));
      rows.push(row('chorus', p, serverRssMb(pids.product), runs.product));
      rows.push(
        `| | | **ratio** | **${(p.rps / b.rps).toFixed(2)}×** | +${(p.p50 - b.p50).toFixed(1)} ms | p99/p50 ${(p.p99 / Math.max(p.p50, 0.001)).toFixed(1)} | | | |`,
      );
      say(`${scenario.name} ×${scenario.connections} done`);
    }
    say('compression');
    const compression = await compressionReport({
      base: bases.product,
      pid: pids.product,
      headers: auth,
      seconds: SECONDS,
      rounds: ROUNDS,
    });
    const soak: string[] = [];
    if (SOAK_SECONDS > 0) {
      say(`soaking Chorus for ${SOAK_SECONDS} s`);
      const m = await drive({
        ...listUsers(bases.product),
        connections: 64,
        seconds: SOAK_SECONDS,
      });
      soak.push(
        `After ${SOAK_SECONDS} s more of GET /api/users at 64 connections (${m.rps.toFixed(0)} req/s, p99 ${m.p99.toFixed(0)} ms, ${m.errors} errors): RSS ${serverRssMb(product.pid ?? 0, API_SERVER).toFixed(0)} MB.`,
        '',
      );
    }
    process.stdout.write(
      [
        `${USERS} users and ${POSTS} posts, ${SECONDS} s × ${ROUNDS} rounds per variant, alternating`,
        '',
        '| request | conns | server | req/s | p50 ms | p99 ms | RSS MB | CPU µs/request: server · PostgreSQL · Redis | errors |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        'Compression on Chorus (the same server with and without Accept-Encoding):',
        '',
        ...compression,
        '',
        ...soak,
        `Next's own process (the dashboard, not under load here): RSS ${serverRssMb(product.pid ?? 0, WEB_SERVER).toFixed(0)} MB.`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
