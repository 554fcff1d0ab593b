import { afterEach, describe, expect, it, vi } from 'vitest';
import { WINDOW_MS, memoryStore, type WindowStore } from '../src/rate-limit';
import { testStore } from './rate-limiter';

/** A moment at the very start of a window, far from now so no real counter is near. */
const START = (Math.floor(Date.now() / WINDOW_MS) + 1000) * WINDOW_MS;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Runs the same script against a store under a controlled clock. Both @upstash/ratelimit and
 * the in-process store read `Date.now()`, so faking Date alone moves their windows.
 */
async function script(store: WindowStore) {
  vi.useFakeTimers({ toFake: ['Date'] });
  const bucket = { key: `k:${Math.random()}`, limit: 5 };
  const seen: string[] = [];
  const record = (d: { success: boolean; remaining: number; reset: number }) =>
    seen.push(`${d.success ? 'ok' : 'no'}:${d.remaining}:${(d.reset - START) / 1000}`);

  vi.setSystemTime(START + 1_000);
  for (let i = 0; i < 6; i++) record(await store.limit(bucket));
  record(await store.peek(bucket));
  // Half-way into the next window, half the previous window's 5 (rounded down) still count.
  vi.setSystemTime(START + WINDOW_MS + WINDOW_MS / 2);
  record(await store.peek(bucket));
  for (let i = 0; i < 4; i++) record(await store.limit(bucket));
  // Three-quarters in: floor(5 × 0.25) = 1 from before, 3 now; yet a refused bucket stays
  // refused until its window ends (the library's ephemeral cache).
  vi.setSystemTime(START + WINDOW_MS + (WINDOW_MS * 3) / 4);
  record(await store.peek(bucket));
  record(await store.limit(bucket));
  // Two windows later, everything is forgotten.
  vi.setSystemTime(START + 3 * WINDOW_MS);
  record(await store.limit(bucket));
  return seen;
}

const EXPECTED = [
  'ok:4:60',
  'ok:3:60',
  'ok:2:60',
  'ok:1:60',
  'ok:0:60',
  'no:0:60',
  'no:0:60',
  'ok:3:120',
  'ok:2:120',
  'ok:1:120',
  'ok:0:120',
  'no:0:120',
  'ok:1:120',
  'no:0:120',
  'ok:4:240',
];

describe('the sliding window', () => {
  it('in this process, counts as @upstash/ratelimit does', async () => {
    const store = memoryStore();
    expect(await script(store)).toEqual(EXPECTED);
    await store.close();
  });

  it(`in the test store (${process.env.REDIS_URL ? 'Redis through @upstash/ratelimit' : 'in-process'}), gives the same answers`, async () => {
    const store = testStore();
    try {
      expect(await script(store)).toEqual(EXPECTED);
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });
});
