import { request } from 'node:http';
import { drive, merge, type Load, type Measure } from './load';
import { cpuUse } from './processes';

/**
 * The compression part of `npm run bench:api`: what gzip and br cost the lists at 64
 * connections, and what they save on large answers. Each list is driven with and without
 * `Accept-Encoding`, alternating, against the same running server: a small page (under the
 * 1 KiB threshold, sent as it is either way) and a full page (compressed when asked).
 * Then the bytes on the wire of large answers, raw (not decompressed), per encoding.
 */

const ENCODINGS = ['identity', 'gzip', 'br'] as const;

/** The body's size on the wire and the encoding the server chose. */
function wireBytes(url: string, headers: Record<string, string>, encoding: string) {
  return new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    const req = request(url, { headers: { ...headers, 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A run, and the CPU time the server spent per request in it (µs): steadier than req/s. */
async function measured(pid: number, load: Load) {
  const before = cpuUse(pid).server;
  const measure = await drive(load);
  const cpu = ((cpuUse(pid).server - before) * 1e6) / Math.max(measure.requests, 1);
  return { measure, cpu };
}

export async function compressionReport(opts: {
  base: string;
  /** The process serving /api/*, whose CPU time is counted. */
  pid: number;
  headers: Record<string, string>;
  seconds: number;
  rounds: number;
}): Promise<string[]> {
  const { base, pid, headers, seconds, rounds } = opts;
  const lists = [
    { name: 'GET /api/users?limit=2 (small page)', url: `${base}/api/users?limit=2` },
    { name: 'GET /api/users?limit=50', url: `${base}/api/users?limit=50` },
  ];
  const rows = [
    '| request | conns | Accept-Encoding | req/s | p50 ms | p99 ms | server CPU µs/request | body bytes | errors |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const list of lists) {
    const runs = { plain: [] as Measure[], compressed: [] as Measure[] };
    const cpu = { plain: 0, compressed: 0 };
    for (let round = 0; round < rounds; round++) {
      const common = { url: list.url, connections: 64, seconds };
      const plain = await measured(pid, { ...common, headers });
      const compressed = await measured(pid, {
        ...common,
        headers: { ...headers, 'accept-encoding': 'br, gzip' },
      });
      runs.plain.push(plain.measure);
      runs.compressed.push(compressed.measure);
      cpu.plain += plain.cpu / rounds;
      cpu.compressed += compressed.cpu / rounds;
    }
    const [p, c] = [merge(runs.plain), merge(runs.compressed)];
    const sizes = {
      plain: await wireBytes(list.url, headers, 'identity'),
      compressed: await wireBytes(list.url, headers, 'br, gzip'),
    };
    const row = (
      label: string,
      m: Measure,
      us: number,
      size: { bytes: number; encoding: string },
    ) =>
      `| ${list.name} | 64 | ${label} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${us.toFixed(0)} | ${size.bytes} (${size.encoding}) | ${m.errors} |`;
    rows.push(row('none', p, cpu.plain, sizes.plain));
    rows.push(row('br, gzip', c, cpu.compressed, sizes.compressed));
    rows.push(
      `| | | **ratio** | **${(c.rps / p.rps).toFixed(2)}×** | | | **${(cpu.compressed / cpu.plain).toFixed(2)}×** | | |`,
    );
  }
  rows.push('', '| large answer | identity bytes | gzip bytes | br bytes |', '|---|---|---|---|');
  for (const path of ['/api/openapi.json', '/api/users?limit=100']) {
    const sizes = [];
    for (const encoding of ENCODINGS) sizes.push(await wireBytes(base + path, headers, encoding));
    rows.push(`| GET ${path} | ${sizes.map((size) => size.bytes).join(' | ')} |`);
  }
  return rows;
}
