import type { JobDefinition } from './definition';
import { deliverWebhooksJob, seedWebhookLanesJob } from './deliver-webhooks';
import { publishDuePostsJob } from './publish-due-posts';
import { dispatchPublishingJob, publishTargetJobs } from './publish-targets';
import { refreshTokensJob } from './refresh-tokens';
import {
  syncAnalyticsJob,
  syncConnectionAnalyticsJob,
  syncPublishedAnalyticsJob,
} from './sync-analytics';

/**
 * Every kind of background work the worker runs. Each area adds its definitions here (one
 * file per job, beside this one). Made when a worker starts, not at import: they read their
 * timings from the settings, and a bad one must stop the start with its message.
 */
export const jobDefinitions = (): JobDefinition[] => [
  publishDuePostsJob(),
  ...publishTargetJobs(),
  dispatchPublishingJob(),
  refreshTokensJob(),
  deliverWebhooksJob(),
  seedWebhookLanesJob(),
  syncAnalyticsJob(),
  syncConnectionAnalyticsJob(),
  syncPublishedAnalyticsJob(),
];
