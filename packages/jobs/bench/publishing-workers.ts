/**
 * The publishing workers of `bench:publishing`, in a process of their own as `npm run worker`
 * runs them in a deployment: WORKERS (2) workers on DATABASE_URL, each with its own pool.
 * Prints `started` once they run; stops on SIGTERM.
 */
import { openDatabase } from '@chorus/db';
import { dispatchPublishingJob, publishDuePostsJob, publishTargetJobs, startWorker } from '../src';

const url = process.env.DATABASE_URL ?? '';
const pools = await Promise.all(
  Array.from({ length: Number(process.env.WORKERS ?? 2) }, () => openDatabase({ url, max: 10 })),
);
const workers = await Promise.all(
  pools.map((pool) =>
    startWorker({
      databaseUrl: url,
      db: pool.db,
      definitions: [publishDuePostsJob(), ...publishTargetJobs(), dispatchPublishingJob()],
    }),
  ),
);
process.stdout.write('started\n');
process.on('SIGTERM', () => {
  void Promise.all(workers.map((worker) => worker.stop()))
    .then(() => Promise.all(pools.map((pool) => pool.close())))
    .then(() => process.exit(0));
});
