/**
 * `@chorus/client` against the app's listener on a real socket: batches the server takes
 * whatever the inputs' size, and the server's refusals reported as the API's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChorusApiError, createChorusClient } from '@chorus/client';
import { apiMounts, createApiListener } from '../src/server';
import { startHarness, type Harness } from './harness';
import { listenOnLoopback } from './http-server';
import { testRateLimiter } from './rate-limiter';

let h: Harness;
let served: Awaited<ReturnType<typeof listenOnLoopback>>;

/** The app's listener, its batch cap read from CHORUS_TRPC_MAX_BATCH as the server reads it. */
function serve(maxBatch?: number) {
  const before = process.env.CHORUS_TRPC_MAX_BATCH;
  if (maxBatch !== undefined) process.env.CHORUS_TRPC_MAX_BATCH = String(maxBatch);
  try {
    const mounts = apiMounts({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter(),
      storage: h.storage,
    });
    const web = (_req: unknown, res: { end(text: string): void }) => res.end('web');
    return listenOnLoopback(
      createApiListener({ mounts, webPaths: [], web, corsOrigins: new Set() }),
    );
  } finally {
    if (before === undefined) delete process.env.CHORUS_TRPC_MAX_BATCH;
    else process.env.CHORUS_TRPC_MAX_BATCH = before;
  }
}

beforeAll(async () => {
  h = await startHarness();
  served = await serve();
});
afterAll(async () => {
  await served?.close();
  await h?.close();
});

describe('the typed client', () => {
  it('answers 20 queries of long inputs made in one tick, split below the URL limit', async () => {
    const chorus = createChorusClient({ url: served.base, token: h.main.token });
    // Each input is ~1.8 KB once percent-encoded: 20 in one URL would be ~36 KB.
    const calls = Array.from({ length: 20 }, () =>
      chorus.posts.list.query({ q: '€'.repeat(200), limit: 1 }),
    );
    for (const answer of await Promise.all(calls)) expect(answer.data).toEqual([]);
  });

  it("reports the server's own refusal of a request with its status and code", async () => {
    const narrow = await serve(2);
    try {
      const chorus = createChorusClient({ url: narrow.base, token: h.main.token, maxBatchSize: 3 });
      const calls = [1, 2, 3].map(() => chorus.users.list.query({}));
      const error = await Promise.all(calls).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChorusApiError);
      expect(error).toMatchObject({ status: 400, code: 'validation_error' });
      const fitted = createChorusClient({ url: narrow.base, token: h.main.token, maxBatchSize: 2 });
      const answers = await Promise.all([1, 2, 3].map(() => fitted.users.list.query({})));
      expect(answers).toHaveLength(3);
    } finally {
      await narrow.close();
    }
  });

  it("reports a refusal made before tRPC reads the request (the REST door's envelope) with its status and code", async () => {
    // Headers past Node's limit (16 KB): the listener refuses the request on the socket, in the
    // REST envelope, before any door reads it.
    const chorus = createChorusClient({ url: served.base, token: 'x'.repeat(20_000) });
    const error = await chorus.users.list.query({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChorusApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    expect((error as ChorusApiError).message).toMatch(/could not be parsed/);
  });
});
