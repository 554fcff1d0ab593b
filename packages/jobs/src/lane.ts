import type PgBoss from 'pg-boss';
import { errorReason } from '@chorus/validators';
import { coalesce } from './coalesce';

export interface LaneOptions {
  /** Jobs of the queue in flight at once in this process. */
  slots: number;
  /** Pause between two fetches for free slots when nothing woke the lane. */
  pollingIntervalSeconds: number;
  onError(error: Error): void;
}

/**
 * Handles a batch fetched together, telling `settled` of each job as it ends; the jobs still
 * open when the promise resolves end with it (or fail with it, when it rejects).
 */
export type LaneHandler<T> = (
  jobs: PgBoss.Job<T>[],
  settled: (jobId: string) => void,
) => Promise<void>;

export interface Lane {
  /** Fetch for the free slots now rather than at the next poll. */
  wake(): void;
  /** Fetches no more and waits (at most `timeoutMs`) for the jobs in flight. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * Works a queue with up to `slots` jobs in flight, each slot freed as its own job ends, so a
 * slow job holds one slot and nothing else. pg-boss's `work` loop fetches a batch and waits for
 * all of it: one slow job there holds up its whole batch and the loop's next fetch.
 *
 * It fetches when woken (jobs queued in this process), at each poll, and, while the queue
 * holds more than the lane could take, as soon as half its slots are free: a fetch for every
 * ended job would add a statement per job to the queue's pool, which queueing shares. Ended
 * jobs are completed in the queue together, before each fetch.
 */
export function startLane<T>(
  boss: PgBoss,
  name: string,
  options: LaneOptions,
  handle: LaneHandler<T>,
): Lane {
  const { slots, onError } = options;
  let inFlight = 0;
  let stopped = false;
  let ended: string[] = [];
  /** The last fetch was cut short by the free slots: more jobs may be waiting. */
  let backlog = false;
  let drained: (() => void) | undefined;

  const complete = async () => {
    if (ended.length === 0) return;
    const ids = ended;
    ended = [];
    await boss.complete(name, ids);
  };

  const fill = async () => {
    await complete().catch(onError);
    while (!stopped && inFlight < slots) {
      const batchSize = slots - inFlight;
      const jobs = await boss.fetch<T>(name, { batchSize });
      backlog = jobs.length === batchSize;
      if (jobs.length === 0) return;
      inFlight += jobs.length;
      run(jobs);
    }
  };

  const filling = coalesce(fill, onError);
  const wake = () => {
    if (!stopped) filling();
  };

  const release = (count: number) => {
    inFlight -= count;
    if (inFlight === 0) drained?.();
    if (backlog && inFlight <= slots / 2) wake();
  };

  const run = (jobs: PgBoss.Job<T>[]) => {
    const open = new Set(jobs.map((job) => job.id));
    const settled = (jobId: string) => {
      if (!open.delete(jobId)) return;
      ended.push(jobId);
      release(1);
    };
    handle(jobs, settled).then(
      () => {
        for (const jobId of [...open]) settled(jobId);
      },
      (error: unknown) => {
        const ids = [...open];
        open.clear();
        if (ids.length === 0) return;
        // Stored in pg-boss's table and its logs: never a query's values or a network's raw words.
        const message = errorReason(error);
        for (const jobId of ids) boss.fail(name, jobId, { message }).catch(onError);
        release(ids.length);
      },
    );
  };

  const poll = setInterval(wake, options.pollingIntervalSeconds * 1000);
  wake();

  return {
    wake,
    stop: async (timeoutMs) => {
      stopped = true;
      clearInterval(poll);
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });
      }
      await filling.idle();
      // What did not end in time stays active in the queue, as a worker that died leaves it.
      await complete().catch(onError);
    },
  };
}
