import type { JobDefinition } from './definition';
import { deliverWebhooksJob, seedWebhookLanesJob } from './deliver-webhooks';
import { publishDuePostsJob } from './publish-due-posts';
import { syncAnalyticsJob, syncConnectionAnalyticsJob } from './sync-analytics';

/**
 * Every kind of background work the worker runs. Each area adds its definitions here (one
 * file per job, beside this one).
 */
export const JOB_DEFINITIONS: JobDefinition[] = [
  publishDuePostsJob(),
  deliverWebhooksJob(),
  seedWebhookLanesJob(),
  syncAnalyticsJob(),
  syncConnectionAnalyticsJob(),
];
