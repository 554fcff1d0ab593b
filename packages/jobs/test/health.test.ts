/**
 * `/api/health` reports the job queue beside the database (docs/deploy.md): its schema, and
 * whether a worker is alive, by the stamp each running worker's pg-boss leaves every 30 s. On
 * the embedded default, and on PostgreSQL and Redis with DATABASE_URL and REDIS_URL.
 */
import { defaultRateLimiter } from '@chorus/api';
import { createRestHandler } from '@chorus/api/rest';
import { QUEUE_SCHEMA, sql, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type Worker } from '../src';
import { until } from './until';

let database: Database & { url: string };
let health: () => Promise<{ status: number; json: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  database = await createTestServerDatabase();
  const door = createRestHandler({
    getDatabase: async () => database,
    rateLimiter: defaultRateLimiter(),
  });
  health = async () => {
    const res = await door(new Request('http://localhost/api/health'));
    return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
});
afterAll(() => database?.close());

describe('GET /api/health and the job queue', () => {
  let worker: Worker | undefined;
  afterAll(() => worker?.stop());

  it('is degraded (200) where no worker ever started: no queue, no worker', async () => {
    const { status, json } = await health();
    expect(status).toBe(200);
    expect(json).toMatchObject({
      status: 'degraded',
      checks: { database: { status: 'up' }, queue: { status: 'down' }, worker: { status: 'down' } },
    });
  });

  it('is ok with a worker running, Redis up where it counts the rate limits', async () => {
    worker = await startWorker({ databaseUrl: database.url, db: database.db, definitions: [] });
    // Its first stamp comes just after it started.
    await until(async () => (await health()).json.checks.worker.status === 'up', 'a tick', 10_000);
    const { status, json } = await health();
    expect(status).toBe(200);
    expect(json).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, queue: { status: 'up' }, worker: { status: 'up' } },
    });
    if (process.env.REDIS_URL) expect(json.checks.redis).toMatchObject({ status: 'up' });
    else expect(json.checks.redis).toBeUndefined();
  });

  it('says the worker is down once none ticked for two minutes, the queue still up', async () => {
    await worker?.stop();
    worker = undefined;
    await database.db.execute(
      sql`update ${sql.identifier(QUEUE_SCHEMA)}.version set cron_on = now() - interval '121 seconds'`,
    );
    const { status, json } = await health();
    expect(status).toBe(200);
    expect(json).toMatchObject({
      status: 'degraded',
      checks: { database: { status: 'up' }, queue: { status: 'up' }, worker: { status: 'down' } },
    });
  });
});
