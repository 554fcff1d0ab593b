import { randomBytes } from 'node:crypto';
import {
  createRateLimiter,
  memoryStore,
  redisStore,
  type RateLimitsOverride,
  type WindowStore,
  WINDOW_MS,
} from '../src/rate-limit';

/** A fresh namespace per use: tests sharing one Redis (and reruns within a minute) never meet. */
export const testPrefix = () => `chorus-test:${randomBytes(6).toString('hex')}`;

/** Counters in the Redis of REDIS_URL when it is set, else in this process. */
export const testStore = (prefix = testPrefix()): WindowStore => {
  const url = process.env.REDIS_URL;
  return url ? redisStore({ url }, prefix) : memoryStore();
};

export const testRateLimiter = (limits?: RateLimitsOverride, store = testStore()) =>
  createRateLimiter({ store, limits });

/**
 * Waits, when the current 60-second window ends within `marginMs`, until the next one begins:
 * requests that must share one window (a budget spent to the last request) then do. Across a
 * boundary, the sliding window weighs the previous window's count down, and one more passes.
 */
export async function awayFromWindowEdge(marginMs = 10_000) {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
