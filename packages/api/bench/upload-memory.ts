/**
 * The memory a 25 MiB upload adds to the server (issue 9: under 10 MiB per upload), against a
 * bare baseline in the same run: a handler that streams the same request body to a file.
 * The server runs in a child process (bench/upload-server.ts), sampling its RSS every 5 ms;
 * memory is read right after a full collection (so only what is held counts), and the
 * whole-body control shows that the measure sees buffering.
 * Run from the root: `npm run bench:upload-memory`. DATABASE_URL: default in-memory PGlite.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MIB = 1024 * 1024;
const SIZE = 25 * MIB - 64 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Uploads sent at once in each batch: `BENCH_PARALLEL=1,4`. */
const PARALLEL = (process.env.BENCH_PARALLEL ?? '1').split(',').map(Number);

const serverScript = fileURLToPath(new URL('./upload-server.ts', import.meta.url));
const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', serverScript], {
  env: { ...process.env, LOG_LEVEL: 'silent' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
const { port, token } = JSON.parse(line) as { port: number; token: string };
const base = `http://127.0.0.1:${port}`;

// A real PNG's first bytes, then filler: the server detects a PNG and stores it all.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJAQMAAAAB1kIbAAAAA1BMVEUAgACc+aWRAAAAC0lEQVR4nGNgwA8AABsAAVPMpKIAAAAASUVORK5CYII=',
  'base64',
);
const file = new Blob([png, new Uint8Array(SIZE - png.length)], { type: 'image/png' });

async function send(path: string) {
  const form = new FormData();
  form.append('file', file, 'big.png');
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

interface Usage {
  rss: number;
  live: number;
}

/** Peak memory added above the settled figure before the batch, in MiB per upload. */
async function measure(path: string, parallel: number) {
  await fetch(`${base}/memory/reset`);
  await Promise.all(Array.from({ length: parallel }, () => send(path)));
  const { baseline, peak } = (await (await fetch(`${base}/memory/peak`)).json()) as {
    baseline: Usage;
    peak: Usage;
  };
  const per = (key: keyof Usage) => (peak[key] - baseline[key]) / MIB / parallel;
  return { rss: per('rss'), live: per('live') };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const PATHS = { bare: '/baseline', chorus: '/api/content/media', buffered: '/buffered' } as const;
type Variant = keyof typeof PATHS;

try {
  // Warm up every path (module loading, database pool, JIT) before measuring.
  for (const path of Object.values(PATHS)) await send(path);
  for (const parallel of PARALLEL) {
    const samples = { bare: [], chorus: [], buffered: [] } as Record<Variant, Usage[]>;
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, so that every variant sees the same conditions.
      for (const variant of Object.keys(PATHS) as Variant[]) {
        samples[variant].push(await measure(PATHS[variant], parallel));
      }
    }
    console.log(
      `\n${parallel} upload(s) of ${(SIZE / MIB).toFixed(2)} MiB at a time: memory added per upload, median of ${ROUNDS} (MiB)`,
    );
    console.log('  variant                         live (heap+external)   RSS');
    const labels: Record<Variant, string> = {
      bare: 'bare: stream body to a file',
      chorus: 'Chorus POST /api/content/media',
      buffered: 'control: whole body in memory',
    };
    for (const variant of Object.keys(PATHS) as Variant[]) {
      const live = median(samples[variant].map((s) => s.live));
      const rss = median(samples[variant].map((s) => s.rss));
      console.log(
        `  ${labels[variant].padEnd(32)}${live.toFixed(2).padStart(8)}${rss.toFixed(2).padStart(18)}`,
      );
    }
    const ratio =
      median(samples.chorus.map((s) => s.live)) /
      Math.max(median(samples.bare.map((s) => s.live)), 0.01);
    console.log(`  Chorus / bare (live): ${ratio.toFixed(1)}×; target: under 10 MiB per upload`);
  }
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
}
