import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { log } from '../server/logger';
import { WINDOW_MS, type Bucket } from './limits';
import { redisBridge, tcpRedis, type TcpRedis } from './redis-bridge';
import type { Decision, WindowStore } from './store';

export type RedisTarget = { url: string } | { restUrl: string; restToken: string };

/**
 * Counters in Redis through @upstash/ratelimit, shared by every server instance: over Upstash's
 * REST API, or over TCP to any Redis through the bridge. `prefix` namespaces the keys.
 */
export function redisStore(target: RedisTarget, prefix: string): WindowStore {
  let tcp: TcpRedis | undefined;
  let redis: Redis;
  if ('url' in target) {
    // Connection errors are logged (once a minute) by the limiter, which sees them fail.
    tcp = tcpRedis(target.url, (error) => log('debug', 'redis error', { error: error.message }));
    redis = new Redis(redisBridge(tcp));
  } else {
    redis = new Redis({
      url: target.restUrl,
      token: target.restToken,
      // The limiter bounds each wait and fails open: retrying past that helps nobody.
      retry: false,
      enableTelemetry: false,
    });
  }

  // A Ratelimit holds one limit; buckets with the same figure share one (and its cache).
  const limiters = new Map<number, Ratelimit>();
  function limiterFor(limit: number) {
    let limiter = limiters.get(limit);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(limit, `${WINDOW_MS / 1000} s` as const),
        prefix,
        // 0 turns off the library's own timeout, which would pass requests silently:
        // the limiter applies its own, and logs.
        timeout: 0,
        analytics: false,
        enableTelemetry: false,
      });
      limiters.set(limit, limiter);
    }
    return limiter;
  }

  return {
    kind: 'redis',
    async limit(bucket: Bucket, cost = 1): Promise<Decision> {
      const { success, limit, remaining, reset } = await limiterFor(bucket.limit).limit(
        bucket.key,
        { rate: cost },
      );
      return { success, limit, remaining, reset };
    },
    async peek(bucket: Bucket): Promise<Decision> {
      const { limit, remaining, reset } = await limiterFor(bucket.limit).getRemaining(bucket.key);
      return { success: remaining > 0, limit, remaining, reset };
    },
    ping: async () => void (await redis.ping()),
    close: async () => tcp?.disconnect(),
  };
}
