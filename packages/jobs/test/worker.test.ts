import type { Database } from '@chorus/db';
import { createTestServerDatabase, startTcpProxy } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineJob, startWorker, type Worker } from '../src';
import { until } from './until';

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

describe('a worker whose database goes away while a job runs', () => {
  it('reports the completion the database refused, rejects nothing unhandled, and works on once it is back', async () => {
    const database = await createTestServerDatabase();
    // The worker reaches the database through a proxy the test can cut.
    const direct = new URL(database.url);
    const proxy = await startTcpProxy(() => Number(direct.port), direct.hostname);
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    // What rejects with no handler ends a process in production: here, the test sees it.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const errors: Error[] = [];
    const seen: string[] = [];
    let running = () => {};
    const started = new Promise<void>((resolve) => (running = resolve));
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const worker = await startWorker({
      databaseUrl: proxied.toString(),
      db: database.db,
      onError: (error) => errors.push(error),
      definitions: [
        defineJob<{ word: string }>({
          name: 'test-outage',
          queue: { retryLimit: 0 },
          work: { pollingIntervalSeconds: 0.5 },
          handle: async (jobs) => {
            const words = jobs.map((job) => job.data.word);
            seen.push(...words);
            if (!words.includes('first')) return;
            running();
            await finished;
          },
        }),
      ],
    });
    try {
      await worker.boss.send('test-outage', { word: 'first' });
      await started;
      proxy.cut();
      // The job ends while the database is unreachable: its completion fails.
      finish();
      await until(() => errors.length > 0, 'the failure reported', 20_000);
      proxy.restore();
      // Sent once the queue's pool reaches the database again.
      const sent = () =>
        worker.boss.send('test-outage', { word: 'second' }).then(
          () => true,
          () => false,
        );
      await until(sent, 'a job sent', 20_000);
      await until(() => seen.includes('second'), 'the job worked', 20_000);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await worker.stop();
      await proxy.close();
      await database.close();
    }
  });
});
