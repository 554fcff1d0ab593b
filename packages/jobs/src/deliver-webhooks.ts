import { deliverDueWebhooks, webhookSettings } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import type PgBoss from 'pg-boss';
import { defineJob, SWEEP_CHAIN_QUEUE } from './definition';

export const DELIVER_WEBHOOKS = 'webhooks.deliver';
export const SEED_WEBHOOK_LANES = 'webhooks.seed-lanes';

export interface WebhookSweepTiming {
  /** Pause after a sweep that found nothing more to do. */
  intervalMs: number;
  /** Sweeps that may run at once, across all workers. */
  lanes: number;
}

/** From `CHORUS_WEBHOOK_SWEEP_INTERVAL_MS` (default 200) and `CHORUS_WEBHOOK_LANES` (4). */
export function webhookSweepTiming(env = process.env): WebhookSweepTiming {
  return {
    intervalMs: readSetting('CHORUS_WEBHOOK_SWEEP_INTERVAL_MS', env),
    lanes: readSetting('CHORUS_WEBHOOK_LANES', env),
  };
}

const laneKey = (lane: number) => `lane-${lane}`;

/**
 * Webhook delivery (docs/webhooks.md): `lanes` chains of sweeps (SWEEP_CHAIN_QUEUE, keyed by
 * lane), each delivering what is due then queueing its own next sweep; any worker may run any
 * lane. Which delivery goes out, and that it goes out once per attempt, rests on the database
 * (SKIP LOCKED claims with a lease), not on this chain. Lanes are seeded by
 * `seedWebhookLanesJob`.
 */
export const deliverWebhooksJob = (
  timing: WebhookSweepTiming = webhookSweepTiming(),
  // Read when the worker starts: a bad setting stops it with a message naming the setting.
  settings = webhookSettings(),
) =>
  defineJob<{ lane?: number }>({
    name: DELIVER_WEBHOOKS,
    queue: SWEEP_CHAIN_QUEUE,
    // A worker takes up to every lane at once and sweeps them side by side.
    work: { pollingIntervalSeconds: 0.5, batchSize: timing.lanes },
    handle: async (jobs, { db, boss }) => {
      await Promise.all(
        jobs.map(async (job) => {
          const lane = job.data.lane ?? 0;
          try {
            await deliverDueWebhooks({ db, settings });
          } finally {
            await boss.send(
              DELIVER_WEBHOOKS,
              { lane },
              { singletonKey: laneKey(lane), startAfter: new Date(Date.now() + timing.intervalMs) },
            );
          }
        }),
      );
    },
  });

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
