import { readSetting } from '@chorus/settings';
import { log } from '../server/logger';
import {
  WINDOW_MS,
  withOverride,
  type Bucket,
  type RateLimits,
  type RateLimitsOverride,
} from './limits';
import type { Decision, WindowStore } from './store';

export interface RateLimiter {
  readonly limits: RateLimits;
  /**
   * Counts a request (`cost` requests: a tRPC batch) against the bucket. Never throws: a
   * failing store lets it pass.
   */
  check(bucket: Bucket, cost?: number): Promise<Decision>;
  /** The bucket's state without counting; same failure rule. */
  peek(bucket: Bucket): Promise<Decision>;
  /** Checks the shared store for /api/health; null when the counters live in this process. */
  readonly probe: (() => Promise<void>) | null;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  store: WindowStore;
  limits?: RateLimitsOverride;
  /** The longest a request waits for the store before it is served uncounted. */
  timeoutMs?: number;
}

/** RATE_LIMIT_TIMEOUT_MS's default, as the settings declare it. */
export const DEFAULT_TIMEOUT_MS = readSetting('RATE_LIMIT_TIMEOUT_MS', {});

/** While the store keeps failing, one log line per this period, not one per request. */
const LOG_EVERY_MS = 60_000;

/** `work`, or a rejection once `ms` have passed without an answer. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rate limiter of the pipeline (docs/rate-limits-and-idempotency.md). When the store (Redis) is unreachable or
 * slow, requests are served uncounted (fail open) and the failure is logged; the headers then
 * show the full budget, since nothing was counted.
 */
export function createRateLimiter({
  store,
  limits: override,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: RateLimiterOptions): RateLimiter {
  const limits = withOverride(override);
  let failingSince: number | undefined;
  let loggedAt = 0;

  function failedOpen(bucket: Bucket, error: unknown): Decision {
    const now = Date.now();
    if (failingSince === undefined || now - loggedAt >= LOG_EVERY_MS) {
      loggedAt = now;
      log('error', 'rate limiter unavailable: serving requests without counting them', {
        store: store.kind,
        error: error instanceof Error ? error.message : String(error),
        failingSinceMs: failingSince === undefined ? 0 : now - failingSince,
      });
    }
    failingSince ??= now;
    const reset = (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
    return { success: true, limit: bucket.limit, remaining: bucket.limit, reset };
  }

  async function ask(bucket: Bucket, count: boolean, cost = 1): Promise<Decision> {
    try {
      const work = count ? store.limit(bucket, cost) : store.peek(bucket);
      const decision = await within(work, timeoutMs);
      if (failingSince !== undefined) {
        log('info', 'rate limiter recovered', {
          store: store.kind,
          downMs: Date.now() - failingSince,
        });
        failingSince = undefined;
      }
      return decision;
    } catch (error) {
      return failedOpen(bucket, error);
    }
  }

  return {
    limits,
    check: (bucket, cost) => ask(bucket, true, cost),
    peek: (bucket) => ask(bucket, false),
    probe: store.kind === 'redis' ? () => within(store.ping(), timeoutMs) : null,
    close: () => store.close(),
  };
}
