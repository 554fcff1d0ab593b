/**
 * A steady trickle of API reads from a process of its own (so that neither the workers' nor
 * the server's event loop delays the clock that times them): GET `PATH` at `RATE` requests a
 * second for `SECONDS`, each timed from when it was due to be sent, so a stalled server counts
 * in full rather than delaying the next request (no coordinated omission). Prints one JSON line:
 * { count, errors, p50, p99 } in milliseconds. Env: BASE, TOKEN, PROBE_PATH, RATE, SECONDS.
 */
const base = process.env.BASE ?? '';
const path = process.env.PROBE_PATH ?? '/api/content/posts?limit=20';
const rate = Number(process.env.RATE ?? 20);
const seconds = Number(process.env.SECONDS ?? 10);
const headers = { authorization: `Bearer ${process.env.TOKEN ?? ''}` };

const started = performance.now();
const latencies: number[] = [];
let errors = 0;
const pending: Promise<void>[] = [];
for (let i = 0; i < rate * seconds; i++) {
  const due = started + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  pending.push(
    fetch(base + path, { headers })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) errors++;
      })
      .catch(() => void errors++)
      .finally(() => void latencies.push(performance.now() - due)),
  );
}
await Promise.all(pending);
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
process.stdout.write(
  `${JSON.stringify({ count: latencies.length, errors, p50: at(0.5), p99: at(0.99) })}\n`,
);
