import type { Bucket } from './limits';

/** A bucket's state after (or, for `peek`, without) counting a request. */
export interface Decision {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the current window ends. */
  reset: number;
}

/** Where the counters live: Redis (shared by all instances) or this process. */
export interface WindowStore {
  /** `redis` when counters live in Redis (reported by /api/health), `memory` otherwise. */
  readonly kind: 'redis' | 'memory';
  /**
   * Counts `cost` requests (1 by default; a tRPC batch of N costs N) against the bucket, unless
   * it is already over its limit. As @upstash/ratelimit's `rate`: a cost that does not fit is
   * counted and refused.
   */
  limit(bucket: Bucket, cost?: number): Promise<Decision>;
  /** The bucket's state, without counting. */
  peek(bucket: Bucket): Promise<Decision>;
  /** Resolves when the backing service answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
