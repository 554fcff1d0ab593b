import { publishDuePosts } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { defineJob, SWEEP_CHAIN_QUEUE } from './definition';
import { queueTargets } from './publish-targets';

export const PUBLISH_DUE_POSTS = 'posts.publish-due';

export interface SchedulerTiming {
  /** How long after one sweep the next one starts. */
  intervalMs: number;
  /** How often each worker asks the queue for the sweep job (pg-boss: at least 0.5 s). */
  pollingIntervalSeconds: number;
}

/** From `CHORUS_SCHEDULER_INTERVAL_MS` (default 500 ms: the lag budget is a few seconds). */
export function schedulerTiming(env = process.env): SchedulerTiming {
  return {
    intervalMs: readSetting('CHORUS_SCHEDULER_INTERVAL_MS', env),
    pollingIntervalSeconds: 0.5,
  };
}

/**
 * The scheduler: a sweep that publishes every due post, then queues the next sweep. Any
 * number of workers share one chain of sweeps instead of multiplying it (SWEEP_CHAIN_QUEUE).
 * Publishing exactly once does not rest on that: `publishDuePosts` only moves rows that are
 * still scheduled. A worker starting queues a sweep at once (catch-up for posts due while no
 * worker ran, or after a worker killed mid-sweep), and a cron schedule re-seeds the chain
 * every minute should it ever break.
 */
export const publishDuePostsJob = (timing: SchedulerTiming = schedulerTiming()) =>
  defineJob<object>({
    name: PUBLISH_DUE_POSTS,
    queue: SWEEP_CHAIN_QUEUE,
    work: { pollingIntervalSeconds: timing.pollingIntervalSeconds },
    handle: async (_jobs, context) => {
      const { db, boss } = context;
      try {
        // Posts with targets go `publishing`: their targets are queued as soon as committed.
        await publishDuePosts({ db, onTargetsDue: (ids) => queueTargets(context, ids) });
      } finally {
        // Refused (null) when another worker's sweep already waits: the chain goes on there.
        await boss.send(
          PUBLISH_DUE_POSTS,
          {},
          { startAfter: new Date(Date.now() + timing.intervalMs) },
        );
      }
    },
    onStart: async ({ boss }) => {
      await boss.send(PUBLISH_DUE_POSTS, {});
      await boss.schedule(PUBLISH_DUE_POSTS, '* * * * *');
    },
  });
