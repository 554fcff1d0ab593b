import {
  dueTargetIds,
  onPublishingWake,
  publishingSettings,
  publishTargets,
  recoverAbandoned,
  targetNetworks,
} from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { NETWORKS, type Network } from '@chorus/validators';
import { coalesce } from './coalesce';
import { defineJob, SWEEP_CHAIN_QUEUE, type JobContext, type JobDefinition } from './definition';

export const PUBLISH_TARGET = 'publishing.target';
export const DISPATCH_PUBLISHING = 'publishing.dispatch';

/**
 * Each network has a queue of its own, worked by a lane of its own: a network that answers
 * slowly, or not at all, holds up none of another network's targets, and a slow target holds
 * only its own slot in its network's lane. Targets whose channel is gone go to PUBLISH_TARGET,
 * where their attempt fails them.
 */
export const publishQueue = (network: Network | null) =>
  network ? `${PUBLISH_TARGET}.${network}` : PUBLISH_TARGET;

export interface PublishingTiming {
  /** Pause between two sweeps for due targets (backoffs, wakes from another process). */
  sweepIntervalMs: number;
  /** Targets one worker publishes at once to each network. */
  concurrency: number;
}

/** From `CHORUS_PUBLISHING_SWEEP_INTERVAL_MS` (default 1000) and `_CONCURRENCY` (default 32). */
export function publishingTiming(env = process.env): PublishingTiming {
  return {
    sweepIntervalMs: readSetting('CHORUS_PUBLISHING_SWEEP_INTERVAL_MS', env),
    concurrency: readSetting('CHORUS_PUBLISHING_CONCURRENCY', env),
  };
}

/**
 * Queues one job per target on its network's queue (at most one waiting per target: the queue
 * is `short` keyed by the target) and has this process's workers fetch at once. A job only
 * asks for an attempt: that it is made once rests on the claim in the database, not on the
 * queue.
 */
export async function queueTargets(
  context: Pick<JobContext, 'boss' | 'db' | 'notify'>,
  ids: string[],
) {
  if (ids.length === 0) return;
  const networks = await targetNetworks(context.db, ids);
  const byQueue = new Map<string, string[]>();
  for (const targetId of ids) {
    const queue = publishQueue(networks.get(targetId) ?? null);
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), targetId]);
  }
  for (const [name, targetIds] of byQueue) {
    await context.boss.insert(
      targetIds.map((targetId) => ({ name, data: { targetId }, singletonKey: targetId })),
    );
    context.notify(name);
  }
}

/**
 * The queues of publishing's attempts (publishQueue), one attempt per job: `publishTargets`
 * claims, publishes, writes the outcome and settles the post; a job for a target that is not
 * due does nothing. A worker that dies mid-attempt leaves the target `publishing`; the
 * dispatcher's recovery takes it from there (so pg-boss's own retry is off: a retry could not
 * know whether the request left).
 */
export function publishTargetJobs(timing: PublishingTiming = publishingTiming()): JobDefinition[] {
  return [null, ...NETWORKS].map((network) =>
    defineJob<{ targetId: string }>({
      name: publishQueue(network),
      queue: { policy: 'short', retryLimit: 0, expireInSeconds: 3600 },
      lane: { slots: timing.concurrency, pollingIntervalSeconds: 0.5 },
      handle: async (jobs, { db, media }, settled) => {
        // One claim and one read of channels, posts and media for the batch; then each target
        // is sent on its own, and its job ends (its slot freed) with its own attempt.
        const jobOf = new Map(jobs.map((job) => [job.data.targetId, job.id]));
        await publishTargets(
          { db, media },
          jobs.map((job) => job.data.targetId),
          (targetId) => settled(jobOf.get(targetId) ?? ''),
        );
      },
    }),
  );
}

/**
 * The dispatcher: a chain of sweeps (SWEEP_CHAIN_QUEUE, like the scheduler's) that returns
 * abandoned claims (recoverAbandoned) and queues a job for every due target: retries whose
 * backoff ended, targets made due by publish-now or retry in another process, jobs lost with
 * a worker. `wakePublishing()` in this process runs a dispatch at once.
 */
export const dispatchPublishingJob = (timing: PublishingTiming = publishingTiming()) => {
  let stopWaking: (() => void) | undefined;
  const dispatch = async (context: JobContext) => {
    await recoverAbandoned(context.db, publishingSettings());
    // Page through the due targets once: while they wait, the first page would come back
    // again and again.
    let after: string | undefined;
    for (;;) {
      const ids = await dueTargetIds(context.db, { limit: 1000, after });
      await queueTargets(context, ids);
      if (ids.length < 1000) return;
      after = ids.at(-1);
    }
  };
  return defineJob<object>({
    name: DISPATCH_PUBLISHING,
    queue: SWEEP_CHAIN_QUEUE,
    work: { pollingIntervalSeconds: 0.5 },
    handle: async (_jobs, context) => {
      try {
        await dispatch(context);
      } finally {
        await context.boss.send(
          DISPATCH_PUBLISHING,
          {},
          { startAfter: new Date(Date.now() + timing.sweepIntervalMs) },
        );
      }
    },
    onStart: async (context) => {
      stopWaking = onPublishingWake(coalesce(() => dispatch(context)));
      await context.boss.send(DISPATCH_PUBLISHING, {});
      await context.boss.schedule(DISPATCH_PUBLISHING, '* * * * *');
    },
    onStop: () => stopWaking?.(),
  });
};
