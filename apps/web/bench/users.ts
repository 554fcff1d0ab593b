/**
 * `npm run bench:users`: what one list request costs as an account grows. Seeds two accounts
 * in a fresh database of the PostgreSQL server of DATABASE_URL (default loopback), one with
 * BENCH_SMALL_USERS (1,000) rows in each list and one with BENCH_LARGE_USERS (1,000,000),
 * starts the production build (`npm start`), and times requests one at a time (one
 * connection), the two accounts alternately, for BENCH_SECONDS (5) × BENCH_ROUNDS (2) each.
 * The users list: page 1, a role's page, the middle page by number and by cursor, and a text
 * search; the posts list: page 1, by status, by tag, by both, and the middle page by cursor.
 * The media list and a webhook's delivery log: page 1 and the middle page by cursor.
 * BENCH_LISTS (`users,posts,media,deliveries`) picks the lists. Prints p50 and p99 per account size and the
 * ratio of the p50s.
 */
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { desc, eq, media, posts, sql, users, webhookDeliveries, type Db } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { freePort, runScript, waitFor } from './processes';
import { seedAccount, seedDeliveries, seedMedia, seedPosts } from './seed';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SIZES = [
  Number(process.env.BENCH_SMALL_USERS ?? 1_000),
  Number(process.env.BENCH_LARGE_USERS ?? 1_000_000),
] as const;
const LISTS = (process.env.BENCH_LISTS ?? 'users,posts,media,deliveries').split(',');
/** `npm start`'s workspace (apps/server), where its scripts run. */
const serverDir = fileURLToPath(new URL('../../server', import.meta.url));
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

interface Account {
  size: number;
  /** The webhook whose deliveries are listed. */
  webhookId: string;
  headers: Record<string, string>;
  /** The list's middle page's number, and the id the same page starts after. */
  middle: number;
  cursor: string;
}

interface List {
  name: string;
  path: (account: Account) => string;
  limit: number;
  scenarios: { name: string; query: (account: Account) => string }[];
}

/** Sequential requests (one connection, kept alive) for `seconds`: the sorted latencies. */
async function time(url: string, headers: Record<string, string>, seconds: number) {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    latencies.push(performance.now() - start);
  }
  return latencies;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

const ALL_LISTS: List[] = [
  {
    name: 'users',
    path: () => '/api/users',
    limit: 50,
    scenarios: [
      { name: 'page 1 (and the total)', query: () => '' },
      { name: 'role=admin, page 1', query: () => '&role=admin' },
      { name: 'middle page by number', query: (a) => `&page=${a.middle}` },
      { name: 'middle page by cursor', query: (a) => `&startingAfter=${a.cursor}` },
      { name: 'q=user-12 (search: counts)', query: () => '&q=user-12' },
    ],
  },
  {
    name: 'posts',
    path: () => '/api/content/posts',
    limit: 25,
    scenarios: [
      { name: 'page 1 (and the total)', query: () => '' },
      { name: 'status=published, page 1', query: () => '&status=published' },
      { name: 'tag=launch, page 1', query: () => '&tag=launch' },
      { name: 'status=draft&tag=news, page 1', query: () => '&status=draft&tag=news' },
      { name: 'middle page by cursor', query: (a) => `&startingAfter=${a.cursor}` },
    ],
  },
  {
    name: 'media',
    path: () => '/api/content/media',
    limit: 25,
    scenarios: [
      { name: 'page 1 (and the total)', query: () => '' },
      { name: 'middle page by cursor', query: (a) => `&startingAfter=${a.cursor}` },
    ],
  },
  {
    name: 'deliveries',
    path: (a) => `/api/webhooks/${a.webhookId}/deliveries`,
    limit: 25,
    scenarios: [
      { name: 'page 1 (and the total)', query: () => '' },
      { name: 'middle page by cursor', query: (a) => `&startingAfter=${a.cursor}` },
    ],
  },
];
const lists = ALL_LISTS.filter((list) => LISTS.includes(list.name));

/** The id the list's middle page starts after, read in the database (no deep offset request). */
async function middleCursor(db: Db, list: List, accountId: string, size: number, middle: number) {
  const offset = (middle - 1) * list.limit - 1;
  const t = { users, posts, media, deliveries: webhookDeliveries }[
    list.name as 'users' | 'posts' | 'media' | 'deliveries'
  ];
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(eq(t.accountId, accountId))
    .orderBy(desc(t.createdAt), desc(t.id))
    .offset(offset)
    .limit(1);
  const id = rows[0]?.id;
  if (!id) throw new Error(`no row ${offset} of ${size} in ${list.name}`);
  return id;
}

async function main() {
  const database = await createTestDatabase();
  const seeded = [];
  for (const size of SIZES) {
    const started = performance.now();
    // The users list gets `size` users; any other list gets a one-user account.
    const account = await seedAccount(database.db, LISTS.includes('users') ? size : 1);
    if (LISTS.includes('posts')) await seedPosts(database.db, account.accountId, size);
    if (LISTS.includes('media')) await seedMedia(database.db, account.accountId, size);
    const webhookId = LISTS.includes('deliveries')
      ? await seedDeliveries(database.db, account.accountId, size)
      : '';
    seeded.push({ size, webhookId, ...account });
    say(`seeded ${size} rows per list in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  // Statistics and the visibility map, as autovacuum leaves a table soon after a bulk load:
  // measure the settled table, not a race with autovacuum.
  await database.db.execute(sql`vacuum analyze users`);
  await database.db.execute(sql`vacuum analyze posts`);
  await database.db.execute(sql`vacuum analyze media`);
  await database.db.execute(sql`vacuum analyze events`);
  await database.db.execute(sql`vacuum analyze webhook_deliveries`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  say('starting npm start (builds if needed)');
  let server: ChildProcess | undefined;
  try {
    server = runScript(
      'src/start.ts',
      {
        DATABASE_URL: database.url,
        REDIS_URL,
        NODE_ENV: 'production',
        PORT: String(port),
        CHORUS_PUBLIC_URL: base,
        CHORUS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        NEXTAUTH_SECRET: 'benchmark session secret, not for use elsewhere',
        // Budgets no run can spend: the benchmark measures the list, not refusals.
        RATE_LIMITS: JSON.stringify({ free: { read: 1e9, write: 1e9 } }),
        RATE_LIMIT_PREFIX: `bench:${process.pid}`,
        CHORUS_WORKER: 'false',
      },
      serverDir,
    );
    await waitFor(`${base}/api/health`, 600_000, server);

    const output: string[] = [];
    for (const list of lists) {
      const accounts: Account[] = [];
      for (const { size, key, accountId, webhookId } of seeded) {
        const headers = { authorization: `Bearer ${key}` };
        const middle = Math.max(2, Math.ceil(size / list.limit / 2));
        const cursor = await middleCursor(database.db, list, accountId, size, middle);
        accounts.push({ size, webhookId, headers, middle, cursor });
      }
      const url = (account: Account, query: string) =>
        `${base}${list.path(account)}?limit=${list.limit}${query}`;
      // Warm up: JIT, the connection pool, every prepared statement.
      for (const account of accounts)
        for (const scenario of list.scenarios)
          await time(url(account, scenario.query(account)), account.headers, 1);

      const rows: string[] = [];
      for (const scenario of list.scenarios) {
        const runs = accounts.map(() => [] as number[]);
        for (let round = 0; round < ROUNDS; round++) {
          for (const [i, account] of accounts.entries()) {
            const target = url(account, scenario.query(account));
            runs[i]?.push(...(await time(target, account.headers, SECONDS)));
          }
        }
        const [small, large] = runs.map((r) => r.sort((a, b) => a - b));
        const p50 = [percentile(small ?? [], 50), percentile(large ?? [], 50)] as const;
        rows.push(
          `| ${scenario.name} | ${p50[0].toFixed(1)} | ${percentile(small ?? [], 99).toFixed(1)} | ${p50[1].toFixed(1)} | ${percentile(large ?? [], 99).toFixed(1)} | **${(p50[1] / p50[0]).toFixed(2)}×** |`,
        );
        say(`${list.name}: ${scenario.name} done`);
      }
      const [small, large] = accounts;
      output.push(
        `GET ${list.path({ webhookId: '{id}' } as Account)}?limit=${list.limit}, one connection, ${SECONDS} s × ${ROUNDS} rounds per account, alternating; middle page ${small?.middle} of ${SIZES[0]} ${list.name}, ${large?.middle} of ${SIZES[1]}`,
        '',
        `| request | ${SIZES[0]} ${list.name} p50 ms | p99 ms | ${SIZES[1]} ${list.name} p50 ms | p99 ms | p50 ratio |`,
        '|---|---|---|---|---|---|',
        ...rows,
        '',
      );
    }
    process.stdout.write(output.join('\n'));
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
