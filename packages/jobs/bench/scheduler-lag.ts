/**
 * `npm run bench:scheduler`: scheduler lag (scheduledAt → publishedAt) for N posts due across
 * one window, published by the real workers (pg-boss sweeps), against a bare baseline in the
 * same run: one in-process timer per post firing at its time and doing the same conditional
 * update on a table of its own. Set DATABASE_URL for PostgreSQL (the target is measured
 * there); without it, an embedded PGlite. Knobs: POSTS (1000), WINDOW_S (60), WORKERS (2),
 * CHORUS_SCHEDULER_INTERVAL_MS (500).
 */
import { inArray, openDatabase, posts, sql } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import { publishDuePostsJob, startWorker } from '../src';

const N = Number(process.env.POSTS ?? 1000);
const WINDOW_MS = Number(process.env.WINDOW_S ?? 60) * 1000;
const WORKERS = Number(process.env.WORKERS ?? 2);

/** postgres.js answers rows, PGlite `{ rows }`. */
type Lag = { lag: number };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function summary(lags: number[]) {
  const sorted = [...lags].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

async function main() {
  const database = await createTestServerDatabase();
  const { db } = database;
  const { accountId } = await createAccount(db, {
    name: 'Bench',
    admin: { name: 'Bench', email: 'bench@bench.test', password: 'correct horse battery' },
  });
  const start = Date.now() + 5_000;
  const times = Array.from({ length: N }, () => new Date(start + Math.random() * WINDOW_MS));
  const ids = times.map(() => newId('post'));
  for (let i = 0; i < N; i += 500) {
    await db.insert(posts).values(
      ids.slice(i, i + 500).map((id, j) => ({
        id,
        accountId,
        title: `Bench ${i + j}`,
        status: 'scheduled' as const,
        scheduledAt: times[i + j],
      })),
    );
  }
  await db.execute(sql`create table bench_baseline (id int primary key, scheduled_at timestamptz,
    published_at timestamptz, status text not null default 'scheduled')`);
  await db.execute(sql`insert into bench_baseline (id, scheduled_at)
    select i, to_timestamp((${JSON.stringify(times.map((t) => t.getTime() / 1000))}::jsonb ->> (i - 1))::float8)
    from generate_series(1, ${N}) as i`);

  const pools = await Promise.all(
    Array.from({ length: WORKERS }, () => openDatabase({ url: database.url, max: 5 })),
  );
  const workers = await Promise.all(
    pools.map((pool) =>
      startWorker({ databaseUrl: database.url, db: pool.db, definitions: [publishDuePostsJob()] }),
    ),
  );
  const baseline = times.map(
    (t, i) =>
      new Promise<void>((resolve) =>
        setTimeout(
          () =>
            void db
              .execute(
                sql`update bench_baseline set status = 'published', published_at = clock_timestamp()
                  where id = ${i + 1} and status = 'scheduled' and scheduled_at <= clock_timestamp()`,
              )
              .then(() => resolve()),
          Math.max(0, t.getTime() - Date.now()),
        ),
      ),
  );
  console.log(`${N} posts due over ${WINDOW_MS / 1000} s, ${WORKERS} workers…`);
  await Promise.all(baseline);
  for (;;) {
    const rows = await db
      .select({ scheduledAt: posts.scheduledAt, publishedAt: posts.publishedAt })
      .from(posts)
      .where(inArray(posts.id, ids));
    if (rows.every((row) => row.publishedAt)) {
      const lags = rows.map(
        (r) => (r.publishedAt?.getTime() ?? 0) - (r.scheduledAt?.getTime() ?? 0),
      );
      const result = (await db.execute(sql`select extract(epoch from
        published_at - scheduled_at) * 1000 as lag from bench_baseline`)) as unknown as
        Lag[] | { rows: Lag[] };
      const base = Array.isArray(result) ? result : result.rows;
      const ours = summary(lags);
      const bare = summary([...base].map((row) => Number(row.lag)));
      const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
      console.log(`engine: ${engine}`);
      console.log(
        `scheduler lag ms: p50 ${ours.p50.toFixed(0)}, p99 ${ours.p99.toFixed(0)}, max ${ours.max.toFixed(0)}`,
      );
      console.log(
        `baseline (timer per post) ms: p50 ${bare.p50.toFixed(1)}, p99 ${bare.p99.toFixed(1)}`,
      );
      console.log(
        `ratio p99: ${(ours.p99 / bare.p99).toFixed(1)}x; target p99 < 2000 ms: ${ours.p99 < 2000 ? 'met' : 'MISSED'}`,
      );
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await Promise.all(workers.map((worker) => worker.stop()));
  await Promise.all(pools.map((pool) => pool.close()));
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
