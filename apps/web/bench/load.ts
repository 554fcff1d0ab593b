import autocannon from 'autocannon';

export interface Load {
  /** Full URL. */
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fresh body per request (POSTs that must not collide). */
  body?: () => string;
  connections: number;
  seconds: number;
}

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered. */
  requests: number;
}

/** Drives `url` for `seconds` with autocannon; non-2xx answers count as errors. */
export async function drive(load: Load): Promise<Measure> {
  const { body } = load;
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers,
    connections: load.connections,
    duration: load.seconds,
    requests: body ? [{ setupRequest: (request) => ({ ...request, body: body() }) }] : undefined,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    requests: result.requests.total,
  };
}

/** Runs of one variant, merged: mean throughput, median of the percentiles. */
export function merge(runs: Measure[]): Measure {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? NaN;
  };
  return {
    rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
  };
}
