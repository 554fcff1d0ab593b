import { randomBytes } from 'node:crypto';
import {
  createRateLimiter,
  memoryStore,
  redisStore,
  type RateLimitsOverride,
  type WindowStore,
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
