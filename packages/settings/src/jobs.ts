import { flag, text, textOr, whole, wholeIn } from './kinds';

/**
 * How long one webhook attempt may take (docs/webhooks.md): @chorus/services' sendAttempt cuts
 * the whole attempt there, its target's check (DNS) included, and CHORUS_WEBHOOK_LEASE_SECONDS
 * must outlast it.
 */
export const WEBHOOK_ATTEMPT_TIMEOUT_SECONDS = 10;
const SHORTEST_WEBHOOK_LEASE = WEBHOOK_ATTEMPT_TIMEOUT_SECONDS + 1;

/** Rate limits, the background jobs, publishing and webhooks (docs/configuration.md). */
export const jobSettings = {
  // Redis or Upstash, and the figures: read together by @chorus/api's rateLimitConfigFromEnv.
  REDIS_URL: text(),
  UPSTASH_REDIS_REST_URL: text(),
  UPSTASH_REDIS_REST_TOKEN: text(),
  RATE_LIMITS: text(),
  RATE_LIMIT_TIMEOUT_MS: whole({
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    fallback: 200,
    message: 'RATE_LIMIT_TIMEOUT_MS must be a positive integer (milliseconds).',
  }),
  RATE_LIMIT_PREFIX: textOr('chorus:ratelimit'),
  CHORUS_SCHEDULER_INTERVAL_MS: wholeIn('CHORUS_SCHEDULER_INTERVAL_MS', 100, 60_000, 500),
  CHORUS_PUBLISHING_CONCURRENCY: wholeIn('CHORUS_PUBLISHING_CONCURRENCY', 1, 256, 32),
  CHORUS_PUBLISHING_SWEEP_INTERVAL_MS: wholeIn(
    'CHORUS_PUBLISHING_SWEEP_INTERVAL_MS',
    100,
    60_000,
    1000,
  ),
  CHORUS_PUBLISHING_LEASE_SECONDS: wholeIn('CHORUS_PUBLISHING_LEASE_SECONDS', 1, 3600, 60),
  CHORUS_PUBLISHING_BACKOFF_MS: wholeIn('CHORUS_PUBLISHING_BACKOFF_MS', 10, 300_000, 15_000),
  CHORUS_PUBLISHING_TIMEOUT_SECONDS: wholeIn('CHORUS_PUBLISHING_TIMEOUT_SECONDS', 1, 3600, 600),
  CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS: wholeIn(
    'CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS',
    0,
    86_400,
    900,
  ),
  CHORUS_ANALYTICS_SYNC_CRON: textOr('0 * * * *').refine(
    (cron) => cron.split(/\s+/).length === 5,
    'CHORUS_ANALYTICS_SYNC_CRON must be a cron expression of 5 fields.',
  ),
  CHORUS_WEBHOOK_SWEEP_INTERVAL_MS: wholeIn('CHORUS_WEBHOOK_SWEEP_INTERVAL_MS', 50, 60_000, 200),
  CHORUS_WEBHOOK_LANES: wholeIn('CHORUS_WEBHOOK_LANES', 1, 64, 4),
  CHORUS_WEBHOOK_CONCURRENCY: wholeIn('CHORUS_WEBHOOK_CONCURRENCY', 1, 10_000, 200),
  CHORUS_WEBHOOK_ENDPOINT_CONCURRENCY: wholeIn(
    'CHORUS_WEBHOOK_ENDPOINT_CONCURRENCY',
    1,
    10_000,
    50,
  ),
  /** Seconds, comma-separated: @chorus/services' webhookSettings holds the default schedule. */
  CHORUS_WEBHOOK_RETRY_SCHEDULE: text(),
  CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS: flag('CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
  // A lease that ends while its attempt is still out lets another worker claim the delivery
  // again, and the endpoint gets it twice.
  CHORUS_WEBHOOK_LEASE_SECONDS: whole({
    min: SHORTEST_WEBHOOK_LEASE,
    max: 3600,
    fallback: 30,
    message: `CHORUS_WEBHOOK_LEASE_SECONDS must be an integer from ${SHORTEST_WEBHOOK_LEASE} to 3600: longer than a webhook attempt's ${WEBHOOK_ATTEMPT_TIMEOUT_SECONDS} s timeout, so that no delivery is claimed again while its attempt is out.`,
  }),
  CHORUS_WEBHOOK_MAX_PER_ACCOUNT: wholeIn('CHORUS_WEBHOOK_MAX_PER_ACCOUNT', 1, 10_000, 50),
  // With CHORUS_INTEGRATION_<ID>_* (below), by @chorus/services' integrationConfigReport.
  CHORUS_INTEGRATION_REDIRECT_ORIGINS: text(),
};

/**
 * Each provider's settings, `CHORUS_INTEGRATION_<ID>_CLIENT_ID` and the like: a family named
 * by prefix, since the providers are data (@chorus/services' catalogue), not settings.
 */
export const INTEGRATION_PREFIX = 'CHORUS_INTEGRATION_';
