import { readSetting } from '@chorus/settings';
import { z } from 'zod';
import type { RateLimitsOverride } from './limits';
import type { RedisTarget } from './redis-store';

type Env = Record<string, string | undefined>;

export interface RateLimitConfig {
  /** Where the counters live; null keeps them in this process (single instance only). */
  redis: RedisTarget | null;
  limits: RateLimitsOverride;
  timeoutMs: number;
  /** Namespace of the keys in Redis, so deployments can share one. */
  prefix: string;
}

const figure = z.number().int().positive();
const tier = z.strictObject({ read: figure.optional(), write: figure.optional() });
const ZRateLimits = z.strictObject({
  free: tier.optional(),
  pro: tier.optional(),
  enterprise: tier.optional(),
  oauthMultiplier: z.number().positive().optional(),
  anonymous: figure.optional(),
  oauthClient: figure.optional(),
});

const fail = (name: string, problem: string): never => {
  throw new Error(`${name} ${problem}`);
};

function parseLimits(raw: string | undefined): RateLimitsOverride {
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return fail('RATE_LIMITS', 'is not valid JSON.');
  }
  const parsed = ZRateLimits.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('RATE_LIMITS', `is invalid at "${issue?.path.join('.')}": ${issue?.message}.`);
  }
  return parsed.data;
}

function parseRedis(env: Env): RedisTarget | null {
  const restUrl = env.UPSTASH_REDIS_REST_URL?.trim();
  const restToken = env.UPSTASH_REDIS_REST_TOKEN?.trim();
  if (restUrl || restToken) {
    if (!restUrl)
      return fail('UPSTASH_REDIS_REST_URL', 'is required with UPSTASH_REDIS_REST_TOKEN.');
    if (!restToken)
      return fail('UPSTASH_REDIS_REST_TOKEN', 'is required with UPSTASH_REDIS_REST_URL.');
    if (!/^https?:\/\//.test(restUrl)) fail('UPSTASH_REDIS_REST_URL', 'must be an http(s) URL.');
    return { restUrl, restToken };
  }
  const url = env.REDIS_URL?.trim();
  if (!url) return null;
  if (!/^rediss?:\/\//.test(url)) fail('REDIS_URL', 'must be a redis:// or rediss:// URL.');
  return { url };
}

/**
 * Rate-limit settings, read and checked in one place. A bad value stops start-up with a
 * message naming the variable. Upstash's REST API wins when both it and REDIS_URL are set.
 */
export function rateLimitConfigFromEnv(env: Env = process.env): RateLimitConfig {
  return {
    redis: parseRedis(env),
    limits: parseLimits(env.RATE_LIMITS?.trim()),
    timeoutMs: readSetting('RATE_LIMIT_TIMEOUT_MS', env),
    prefix: readSetting('RATE_LIMIT_PREFIX', env),
  };
}
