import { queueHeartbeatAge, type Db } from '@chorus/db';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number }>;
}

/** A check that has not answered by then counts as down: health must answer promptly. */
const PROBE_TIMEOUT_MS = 2_000;

async function probe(check: () => Promise<void>) {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS).unref(),
      ),
    ]);
    return { status: 'up' as const, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { status: 'down' as const, latencyMs: Math.round(performance.now() - started) };
  }
}

/**
 * Liveness and readiness of what the app stands on. The database being down is fatal; a
 * service the app can do without for a while (Redis: rate limits fail open; the job queue:
 * requests are served, background work waits) only degrades.
 */
export async function checkHealth(
  pingDatabase: () => Promise<void>,
  optional: Record<string, () => Promise<void>> = {},
): Promise<HealthReport> {
  const probes = Object.entries(optional).map(
    async ([name, check]) => [name, await probe(check)] as const,
  );
  const [db, others] = await Promise.all([probe(pingDatabase), Promise.all(probes)]);
  const degraded = others.some(([, check]) => check.status === 'down');
  return {
    status: db.status === 'down' ? 'down' : degraded ? 'degraded' : 'ok',
    checks: { database: db, ...Object.fromEntries(others) },
  };
}

/**
 * A worker's pg-boss ticks every 30 s (packages/db queue.ts): after four missed ticks no worker
 * is taken to be running, though one restarting or catching up with a database that was away
 * for a minute is not.
 */
export const WORKER_SILENT_AFTER_SECONDS = 120;

/**
 * The job queue's checks, from one read of pg-boss's bookkeeping per report: `queue`, its
 * schema answers (a worker has started on this database at least once); `worker`, a worker
 * ticked within WORKER_SILENT_AFTER_SECONDS, whichever process it runs in (`npm start`'s or
 * `npm run worker`'s): scheduled posts, publishing, webhook deliveries and analytics syncs wait
 * while none runs. The API serves without either, so each only degrades the report.
 */
export function queueChecks(getDb: () => Promise<Db>) {
  let read: Promise<number | null> | undefined;
  const heartbeat = () => (read ??= getDb().then(queueHeartbeatAge));
  return {
    queue: async () => void (await heartbeat()),
    worker: async () => {
      const age = await heartbeat();
      if (age === null || age > WORKER_SILENT_AFTER_SECONDS) throw new Error('no worker ticked');
    },
  };
}
