import { rateLimitConfigFromEnv, type RateLimitConfig } from './config';
import { createRateLimiter, type RateLimiter } from './limiter';
import { memoryStore } from './memory-store';
import { redisStore } from './redis-store';

export { rateLimitConfigFromEnv, type RateLimitConfig } from './config';
export { clientIp, peerClient, trustedProxiesFromEnv, type TrustedProxies } from './client-ip';
export { callerBucket } from './caller-bucket';
export { enforceRateLimit, reportRateLimit } from './enforce';
export { createRateLimiter, type RateLimiter, type RateLimiterOptions } from './limiter';
export {
  anonymousBucket,
  DEFAULT_RATE_LIMITS,
  oauthClientBucket,
  principalBucket,
  WINDOW_MS,
  type Bucket,
  type RateLimits,
  type RateLimitsOverride,
} from './limits';
export { memoryStore } from './memory-store';
export { redisStore, type RedisTarget } from './redis-store';
export type { Decision, WindowStore } from './store';

export function rateLimiterFromConfig(config: RateLimitConfig): RateLimiter {
  return createRateLimiter({
    store: config.redis ? redisStore(config.redis, config.prefix) : memoryStore(),
    limits: config.limits,
    timeoutMs: config.timeoutMs,
  });
}

let shared: RateLimiter | undefined;

/** The process's limiter, from the environment: every REST handler of the process shares it. */
export function defaultRateLimiter(): RateLimiter {
  shared ??= rateLimiterFromConfig(rateLimitConfigFromEnv());
  return shared;
}
