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
 * service the app can do without for a while (Redis: rate limits fail open) only degrades.
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
