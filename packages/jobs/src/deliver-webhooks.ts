import type { Db } from '@chorus/db';
import { ATTEMPT_TIMEOUT_MS, webhookSettings } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import type PgBoss from 'pg-boss';
import { defineJob, SWEEP_CHAIN_QUEUE } from './definition';
import { startDeliveryPool, type DeliveryPool } from './webhook-pool';

export const DELIVER_WEBHOOKS = 'webhooks.deliver';
export const SEED_WEBHOOK_LANES = 'webhooks.seed-lanes';

export interface WebhookSweepTiming {
  /** Pause after a sweep that found nothing more to do. */
  intervalMs: number;
  /** Chains of sweeps, across all workers. */
  lanes: number;
  /** Attempts one worker has out at once. */
  concurrency: number;
  /** Attempts one worker has out at once to one endpoint. */
  endpointConcurrency: number;
}

/**
 * From `CHORUS_WEBHOOK_SWEEP_INTERVAL_MS` (default 200), `CHORUS_WEBHOOK_LANES` (4),
 * `CHORUS_WEBHOOK_CONCURRENCY` (200) and `CHORUS_WEBHOOK_ENDPOINT_CONCURRENCY` (50).
 */
export function webhookSweepTiming(env = process.env): WebhookSweepTiming {
  return {
    intervalMs: readSetting('CHORUS_WEBHOOK_SWEEP_INTERVAL_MS', env),
    lanes: readSetting('CHORUS_WEBHOOK_LANES', env),
    concurrency: readSetting('CHORUS_WEBHOOK_CONCURRENCY', env),
    endpointConcurrency: readSetting('CHORUS_WEBHOOK_ENDPOINT_CONCURRENCY', env),
  };
}

const laneKey = (lane: number) => `lane-${lane}`;

/**
 * Webhook delivery (docs/webhooks.md): `lanes` chains of sweeps (SWEEP_CHAIN_QUEUE, keyed by
 * lane), each having this worker's pool (webhook-pool.ts) claim what is due for its free slots,
 * then queueing its own next sweep; any worker may run any lane. A sweep ends once it has
 * claimed, not when the attempts end, so a slow endpoint holds no sweep, nor the pg-boss batch
 * of lanes a worker fetched together. Which delivery goes out, and that it goes out once per
 * attempt, rests on the database (SKIP LOCKED claims with a lease), not on this chain. Lanes
 * are seeded by `seedWebhookLanesJob`.
 */
export const deliverWebhooksJob = (
  timing: WebhookSweepTiming = webhookSweepTiming(),
  // Read when the worker starts: a bad setting stops it with a message naming the setting.
  settings = webhookSettings(),
) => {
  let pool: DeliveryPool | undefined;
  const poolOn = (db: Db, onError: (error: Error) => void) =>
    (pool ??= startDeliveryPool({
      db,
      settings,
      slots: timing.concurrency,
      perEndpoint: timing.endpointConcurrency,
      onError,
    }));
  return defineJob<{ lane?: number }>({
    name: DELIVER_WEBHOOKS,
    queue: SWEEP_CHAIN_QUEUE,
    // A worker takes up to every lane at once; their sweeps make one claim.
    work: { pollingIntervalSeconds: 0.5, batchSize: timing.lanes },
    handle: async (jobs, { db, boss, onError }) => {
      try {
        await poolOn(db, onError).fill();
      } finally {
        for (const job of jobs) {
          const lane = job.data.lane ?? 0;
          await boss.send(
            DELIVER_WEBHOOKS,
            { lane },
            { singletonKey: laneKey(lane), startAfter: new Date(Date.now() + timing.intervalMs) },
          );
        }
      }
    },
    // The attempts out end within their timeout; their outcomes are logged before the
    // database closes.
    onStop: () => pool?.stop(ATTEMPT_TIMEOUT_MS + 1000),
  });
};

/**
 * Starts every lane that is not running (a lane already queued refuses the send): when a
 * worker starts, and every minute should a chain ever break (a crashed worker).
 */
export const seedWebhookLanesJob = (timing: WebhookSweepTiming = webhookSweepTiming()) => {
  const seed = async (boss: PgBoss) => {
    for (let lane = 0; lane < timing.lanes; lane++) {
      await boss.send(DELIVER_WEBHOOKS, { lane }, { singletonKey: laneKey(lane) });
    }
  };
  return defineJob<object>({
    name: SEED_WEBHOOK_LANES,
    queue: { policy: 'stately', expireInSeconds: 60 },
    handle: (_jobs, { boss }) => seed(boss),
    onStart: async ({ boss }) => {
      await seed(boss);
      await boss.schedule(SEED_WEBHOOK_LANES, '* * * * *');
    },
  });
};
