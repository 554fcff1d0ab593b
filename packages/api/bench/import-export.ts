/**
 * Import and export at volume (issue 23 item 8): the p50 time of importing 1,000 CSV rows
 * (`BENCH_ROUNDS` runs, 5 by default), and exporting 100,000 posts as CSV and JSON: the time,
 * and the server's peak RSS growth above its settled size before the export (target: under
 * 50 MB). The server runs in a child process (bench/import-export-server.ts) so only its
 * memory is measured; the client reads the download as it streams, keeping only a count.
 * Run from the root: `npm run bench:import-export`. DATABASE_URL: default in-memory PGlite.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MB = 1_000_000;

const serverScript = fileURLToPath(new URL('./import-export-server.ts', import.meta.url));
const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', serverScript], {
  env: { ...process.env, LOG_LEVEL: 'silent' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
const { port, token, posts } = JSON.parse(line) as { port: number; token: string; posts: number };
const base = `http://127.0.0.1:${port}`;
const auth = { authorization: `Bearer ${token}` };

function csv(round: number) {
  const at = new Date(Date.now() + 86_400_000).toISOString();
  const rows = Array.from(
    { length: 1000 },
    (_, i) =>
      `Imported ${round}-${i},"Some content, ${'y'.repeat(200)}","bench,import",${i % 2 ? at : ''}`,
  );
  return `title,content,tags,scheduledAt\n${rows.join('\n')}\n`;
}

async function importOnce(round: number) {
  const started = performance.now();
  const res = await fetch(`${base}/api/content/posts/import`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv' },
    body: csv(round),
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`import: ${res.status} ${body.slice(0, 300)}`);
  return performance.now() - started;
}

/** Downloads the export, counting bytes and lines as they arrive, keeping neither. */
async function exportOnce(format: 'csv' | 'json') {
  await fetch(`${base}/memory/reset`);
  const started = performance.now();
  const res = await fetch(`${base}/api/content/posts/export?format=${format}`, {
    headers: auth,
  });
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const ms = performance.now() - started;
  const { baseline, peak } = (await (await fetch(`${base}/memory/peak`)).json()) as {
    baseline: number;
    peak: number;
  };
  return { ms, bytes, growth: (peak - baseline) / MB };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

try {
  await importOnce(-1); // warm-up: module loading, JIT, the database's caches
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push(await importOnce(round));
  console.log(
    `import of 1,000 CSV rows: p50 ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`,
  );
  // `BENCH_FORMATS=json,csv`: the order of the exports (the second starts from the first's RSS).
  const formats = (process.env.BENCH_FORMATS ?? 'csv,json').split(',') as ('csv' | 'json')[];
  for (const format of formats) {
    const { ms, bytes, growth } = await exportOnce(format);
    console.log(
      `export of ${posts.toLocaleString('en')} posts as ${format}: ${(ms / 1000).toFixed(1)} s, ${(bytes / MB).toFixed(1)} MB sent, server peak RSS growth ${growth.toFixed(1)} MB (target: under 50 MB)`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
}
