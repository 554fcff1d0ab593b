/**
 * Analytics at scale (issue 12), on PostgreSQL: `GET /api/analytics/stats` over 366 days for
 * an account with 100,000 events and one with 10,000,000 (made with generate_series, with
 * their daily counts), p50 and p99 of each through the REST door and their ratio; then the
 * ingest rate of 1,000-event batches through the door against a bare multi-row INSERT of the
 * same rows (postgres.js), from one sender and from several at once. Run from the root: `npm run bench:analytics`.
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres: a fresh database is
 * made on that server and dropped after), BENCH_LARGE (default 10000000), BENCH_SMALL
 * (default 100000), BENCH_REQUESTS (default 60 per account), BENCH_BATCHES (default 40 per
 * measure), BENCH_CLIENTS (default 4: the concurrent senders of the second ingest measure).
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey, newId } from '@chorus/services';
import postgres from 'postgres';
import { createRateLimiter, memoryStore } from '../src/rate-limit';
import { createRestHandler } from '../src/rest';

process.env.LOG_LEVEL ??= 'silent';
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const LARGE = Number(process.env.BENCH_LARGE ?? 10_000_000);
const SMALL = Number(process.env.BENCH_SMALL ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const POSTS = 20;
const PLATFORMS = ['facebook', 'instagram', 'linkedin'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** An account with `events` tracked events over the last 366 days, and their daily counts. */
async function seededAccount(database: Database, sql: postgres.Sql, events: number) {
  const { accountId, adminId } = await createAccount(database.db, {
    name: `Bench ${events}`,
    admin: {
      email: `bench-${randomBytes(4).toString('hex')}@example.test`,
      password: 'bench pw 1',
    },
  });
  const postIds = Array.from({ length: POSTS }, () => newId('post'));
  await sql`insert into posts ${sql(postIds.map((id, i) => ({ id, account_id: accountId, author_id: adminId, title: `Post ${i}` })))}`;
  const started = performance.now();
  // Spread at random over the year, the posts and the platforms (a tenth without platform),
  // impressions ten times as common as each other type.
  await sql`
    insert into tracked_events (id, account_id, type, content_id, integration_id, occurred_at, properties)
    select 'aev_bench_' || ${accountId} || '_' || g,
           ${accountId},
           (array['impression','impression','impression','impression','impression','impression',
                  'view','click','like','share','comment','follow'])[1 + floor(random() * 12)::int]::tracked_event_type,
           (${postIds}::text[])[1 + floor(random() * ${POSTS})::int],
           (${[...PLATFORMS, null]}::text[])[1 + floor(random() * ${PLATFORMS.length + 1})::int],
           now() - random() * interval '365 days',
           '{}'::jsonb
    from generate_series(1, ${events}) g`;
  const sums = sql.unsafe(
    ['impression', 'view', 'click', 'like', 'share', 'comment', 'follow']
      .map((t) => `coalesce(sum(count) filter (where type = '${t}'), 0)`)
      .join(', '),
  );
  const day = sql`(occurred_at at time zone 'UTC')::date`;
  const mine = sql`from tracked_events where account_id = ${accountId}`;
  const columns = sql`impression, view, click, "like", share, comment, follow`;
  await sql`insert into analytics_daily (account_id, day, content_id, integration_id, ${columns})
    select ${accountId}, ${day}, content_id, integration_id, ${sums} ${mine} group by 2, 3, 4`;
  await sql`insert into analytics_daily_by_platform (account_id, day, integration_id, ${columns})
    select ${accountId}, ${day}, integration_id, ${sums} ${mine} group by 2, 3`;
  await sql`insert into analytics_daily_by_content (account_id, day, content_id, ${columns})
    select ${accountId}, ${day}, content_id, ${sums} ${mine} and content_id is not null group by 2, 3`;
  await sql`analyze`;
  const { secret } = await createApiKey({
    db: database.db,
    userId: adminId,
    name: 'bench',
    scopes: ['analytics:read', 'analytics:write'],
    environment: 'test',
  });
  console.log(
    `  ${events.toLocaleString('en')} events seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { accountId, token: secret, postIds };
}

async function main() {
  const database = await createTestDatabase();
  if (!database.url) throw new Error('set DATABASE_URL to a PostgreSQL server');
  const sql = postgres(database.url, { max: 4, onnotice: () => {} });
  const rateLimiter = createRateLimiter({
    store: memoryStore(),
    limits: { free: { read: 1e9, write: 1e9 } },
  });
  const handle = createRestHandler({ getDatabase: async () => database, rateLimiter });
  try {
    console.log('Seeding (PostgreSQL)…');
    const small = await seededAccount(database, sql, SMALL);
    const large = await seededAccount(database, sql, LARGE);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const stats = (token: string) => async () => {
      const res = await handle(
        new Request(`http://localhost/api/analytics/stats?from=${from}&to=${today}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      if (res.status !== 200) throw new Error(`stats answered ${res.status}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 10; i++) await Promise.all([stats(small.token)(), stats(large.token)()]);
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    // Alternated, so both accounts see the same machine.
    for (let i = 0; i < REQUESTS; i++) {
      smallTimes.push(await timed(stats(small.token)));
      largeTimes.push(await timed(stats(large.token)));
    }
    const s = summary(smallTimes);
    const l = summary(largeTimes);
    console.log('\nGET /api/analytics/stats over 366 days (ms)');
    console.log(
      `  ${SMALL.toLocaleString('en').padStart(11)} events: p50 ${s.p50.toFixed(2)}  p99 ${s.p99.toFixed(2)}`,
    );
    console.log(
      `  ${LARGE.toLocaleString('en').padStart(11)} events: p50 ${l.p50.toFixed(2)}  p99 ${l.p99.toFixed(2)}`,
    );
    console.log(
      `  ratio of p50s (large / small): ${(l.p50 / s.p50).toFixed(2)}× (target ≤ 2, each < 50 ms)`,
    );

    const batch = (i: number) =>
      Array.from({ length: 1000 }, (_, j) => ({
        type: (['impression', 'view', 'click', 'like'] as const)[j % 4],
        contentId: small.postIds[j % POSTS],
        integrationId: PLATFORMS[j % PLATFORMS.length],
        properties: { batch: i },
      }));
    const record = async (i: number) => {
      const res = await handle(
        new Request('http://localhost/api/analytics/events', {
          method: 'POST',
          headers: { authorization: `Bearer ${small.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ events: batch(i) }),
        }),
      );
      if (res.status !== 201) throw new Error(`record answered ${res.status}`);
      await res.arrayBuffer();
    };
    const bare = async (i: number) => {
      const rows = batch(i).map((e) => ({
        id: newId('aev'),
        account_id: small.accountId,
        type: e.type,
        content_id: e.contentId,
        integration_id: e.integrationId,
        occurred_at: new Date(),
        properties: e.properties,
      }));
      await sql`insert into tracked_events ${sql(rows)}`;
    };
    await record(-1);
    await bare(-1);
    // `clients` senders, each posting its batches one after another, for door and bare in turn.
    const rate = async (send: (i: number) => Promise<void>, clients: number) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < BATCHES) await send(next++);
        }),
      );
      return Math.round((BATCHES * 1000) / ((performance.now() - started) / 1000));
    };
    console.log('\nIngest, 1,000-event batches (events/s; target ≥ 20,000)');
    console.log('  clients  REST door (events + daily counts)  bare INSERT (no counts)  ratio');
    for (const clients of [1, CLIENTS]) {
      const door = await rate(record, clients);
      const plain = await rate(bare, clients);
      console.log(
        `  ${String(clients).padStart(7)}  ${door.toLocaleString('en').padStart(33)}  ${plain.toLocaleString('en').padStart(23)}  ${(door / plain).toFixed(2)}×`,
      );
    }
  } finally {
    await rateLimiter.close();
    await sql.end();
    await database.close();
  }
}

await main();
