import { WINDOW_MS, type Bucket } from './limits';
import type { Decision, WindowStore } from './store';

interface Counter {
  window: number;
  current: number;
  previous: number;
}

/**
 * Counters in this process, for a single-instance deployment without Redis. The arithmetic is
 * @upstash/ratelimit's `slidingWindow` (its Lua script and ephemeral cache): the previous
 * window's count weighted by the part of it still inside the sliding window, rounded down,
 * plus the current window's; a refused bucket stays refused until its window ends.
 */
export function memoryStore(now = () => Date.now(), windowMs = WINDOW_MS): WindowStore {
  const counters = new Map<string, Counter>();
  const blockedUntil = new Map<string, number>();
  let sweptWindow = 0;

  /** Forgets counters older than the previous window, once per window. */
  function sweep(window: number) {
    if (window === sweptWindow) return;
    sweptWindow = window;
    for (const [key, counter] of counters) if (counter.window < window - 1) counters.delete(key);
    for (const [key, until] of blockedUntil)
      if (until <= window * windowMs) blockedUntil.delete(key);
  }

  function read(key: string, window: number) {
    const counter = counters.get(key);
    if (counter?.window === window) return { current: counter.current, previous: counter.previous };
    if (counter?.window === window - 1) return { current: 0, previous: counter.current };
    return { current: 0, previous: 0 };
  }

  function state(bucket: Bucket, count: boolean, cost = 1): Decision {
    const at = now();
    const window = Math.floor(at / windowMs);
    const reset = (window + 1) * windowMs;
    sweep(window);
    const until = blockedUntil.get(bucket.key);
    if (count && until !== undefined && until > at) {
      return { success: false, limit: bucket.limit, remaining: 0, reset: until };
    }
    const { current, previous } = read(bucket.key, window);
    const used = Math.floor((1 - (at % windowMs) / windowMs) * previous) + current;
    if (!count) {
      const remaining = Math.max(0, bucket.limit - used);
      return { success: remaining > 0, limit: bucket.limit, remaining, reset };
    }
    if (used >= bucket.limit) {
      blockedUntil.set(bucket.key, reset);
      return { success: false, limit: bucket.limit, remaining: 0, reset };
    }
    // As the library's script: the cost is counted even when it does not fit, and refused.
    counters.set(bucket.key, { window, current: current + cost, previous });
    const remaining = bucket.limit - used - cost;
    if (remaining < 0) {
      blockedUntil.set(bucket.key, reset);
      return { success: false, limit: bucket.limit, remaining: 0, reset };
    }
    return { success: true, limit: bucket.limit, remaining, reset };
  }

  return {
    kind: 'memory',
    limit: async (bucket, cost) => state(bucket, true, cost),
    peek: async (bucket) => state(bucket, false),
    ping: async () => {},
    close: async () => {
      counters.clear();
      blockedUntil.clear();
    },
  };
}
