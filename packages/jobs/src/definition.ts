import type { Db } from '@chorus/db';
import type { MediaSource } from '@chorus/services';
import type PgBoss from 'pg-boss';
import type { LaneOptions } from './lane';

/** What every job handler gets: the database and the queue (to send follow-up jobs). */
export interface JobContext {
  db: Db;
  boss: PgBoss;
  /** Where publishing reads attachments (storage, signed URLs). */
  media: MediaSource;
  /** Makes this process's workers of a queue fetch now instead of at their next poll. */
  notify(queue: string): void;
  /** Told about failures no job caught: work a handler left going after it returned. */
  onError(error: Error): void;
}

/**
 * One kind of background work: a pg-boss queue and its handler. Handlers call services; the
 * database, not timing, makes them correct (conditional updates, unique keys), since pg-boss
 * delivers at least once.
 */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** Retry, expiry and retention of the queue's jobs. */
  queue?: Omit<PgBoss.Queue, 'name'>;
  /** Batch size and polling of the worker's pg-boss `work` loop. */
  work?: PgBoss.WorkOptions;
  /**
   * Works the queue in a lane (lane.ts) instead of a `work` loop: this many jobs in flight,
   * each slot freed as its own job ends, which the handler tells through `settled`.
   */
  lane?: Omit<LaneOptions, 'onError'>;
  handle(
    jobs: PgBoss.Job<T>[],
    context: JobContext,
    settled: (jobId: string) => void,
  ): Promise<void>;
  /** Runs once when a worker starts, after the queue exists: catch-up, recurring schedules. */
  onStart?(context: JobContext): Promise<void>;
  /** Runs when the worker stops, before its queues drain; the stop waits for it. */
  onStop?(): void | Promise<void>;
}

/**
 * The queue of a chain of sweeps (the scheduler, the publishing dispatcher, each webhook lane):
 * each sweep queues the next, and a worker starting, or a cron schedule, seeds the chain should
 * it break. `short` keeps at most one sweep waiting however many workers send one. Not
 * `stately`: there, the sweep a killed worker left running would hold the chain until pg-boss's
 * maintenance expired it, one to three minutes later. Two sweeps may run at once now and then
 * (a seed during a sweep); what each publishes rests on the database, not on this.
 */
export const SWEEP_CHAIN_QUEUE = {
  policy: 'short',
  retryLimit: 3,
  retryDelay: 1,
  expireInSeconds: 60,
} as const satisfies Omit<PgBoss.Queue, 'name'>;

/** Keeps the payload type of a definition while listing it among the others. */
export const defineJob = <T extends object>(definition: JobDefinition<T>) =>
  definition as unknown as JobDefinition;
