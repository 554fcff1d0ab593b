import type { Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineJob, startWorker, type Worker } from '../src';

describe('the worker', () => {
  let database: Database & { url: string };
  let worker: Worker;
  const seen: string[] = [];
  let started = 0;
  let notify: () => void = () => {};

  beforeAll(async () => {
    database = await createTestServerDatabase();
    worker = await startWorker({
      databaseUrl: database.url,
      db: database.db,
      definitions: [
        defineJob<{ word: string }>({
          name: 'test-echo',
          work: { pollingIntervalSeconds: 0.5 },
          handle: async (jobs) => {
            for (const job of jobs) seen.push(job.data.word);
            notify();
          },
          onStart: async () => void started++,
        }),
      ],
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await database?.close();
  });

  it('creates each queue, runs onStart once, and works the jobs sent to it', async () => {
    expect(started).toBe(1);
    const handled = new Promise<void>((resolve) => (notify = resolve));
    await worker.boss.send('test-echo', { word: 'hello' });
    await handled;
    expect(seen).toEqual(['hello']);
  });
});
