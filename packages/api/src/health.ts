import type { Database } from '@chorus/db';

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

/** Liveness and readiness of what the app stands on; the database being down is fatal. */
export async function checkHealth(database: Database): Promise<HealthReport> {
  const db = await probe(() => database.ping());
  return { status: db.status === 'up' ? 'ok' : 'down', checks: { database: db } };
}
