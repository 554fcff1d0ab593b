import { text } from './kinds';

/**
 * Rate limits, the background jobs and webhooks: each group is parsed, with its messages, by
 * the package that owns it (the parsers named), called by the start-up check (apps/server).
 */
export const jobSettings = {
  // @chorus/api's rateLimitConfigFromEnv.
  REDIS_URL: text(),
  UPSTASH_REDIS_REST_URL: text(),
  UPSTASH_REDIS_REST_TOKEN: text(),
  RATE_LIMITS: text(),
  RATE_LIMIT_TIMEOUT_MS: text(),
  RATE_LIMIT_PREFIX: text(),
  // @chorus/jobs' schedulerTiming, publishingTiming, analyticsSyncCron, webhookSweepTiming.
  CHORUS_SCHEDULER_INTERVAL_MS: text(),
  CHORUS_PUBLISHING_CONCURRENCY: text(),
  CHORUS_PUBLISHING_SWEEP_INTERVAL_MS: text(),
  CHORUS_ANALYTICS_SYNC_CRON: text(),
  CHORUS_WEBHOOK_SWEEP_INTERVAL_MS: text(),
  CHORUS_WEBHOOK_LANES: text(),
  // @chorus/services' publishingSettings.
  CHORUS_PUBLISHING_LEASE_SECONDS: text(),
  CHORUS_PUBLISHING_BACKOFF_MS: text(),
  CHORUS_PUBLISHING_TIMEOUT_SECONDS: text(),
  CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS: text(),
  // @chorus/services' webhookSettings.
  CHORUS_WEBHOOK_RETRY_SCHEDULE: text(),
  CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS: text(),
  CHORUS_WEBHOOK_LEASE_SECONDS: text(),
  CHORUS_WEBHOOK_MAX_PER_ACCOUNT: text(),
  // @chorus/services' integrationConfigReport; with CHORUS_INTEGRATION_<ID>_* (see below).
  CHORUS_INTEGRATION_REDIRECT_ORIGINS: text(),
};

/**
 * Each provider's settings, `CHORUS_INTEGRATION_<ID>_CLIENT_ID` and the like: a family named
 * by prefix, since the providers are data (@chorus/services' catalogue), not settings.
 */
export const INTEGRATION_PREFIX = 'CHORUS_INTEGRATION_';
