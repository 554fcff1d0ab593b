import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A TypeScript entry point run by Node through tsx. Its log lines (stdout) go to /dev/null: a
 * pipe read by this busy process would fill and stall the server; errors (stderr) are shown
 * if it fails.
 */
export function runScript(file: string, env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stderr?.on('data', keep);
  child.on('exit', (code) => {
    if (code && !child.killed) process.stderr.write(`${file} exited with ${code}:\n${output}\n`);
  });
  return child;
}

/**
 * Resolves once `url` answers at all (any status), polling; rejects after `ms`, or as soon as
 * the `server` that should answer has exited.
 */
export async function waitFor(url: string, ms: number, server?: ChildProcess) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`the server of ${url} exited`);
    const ok = await fetch(url).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

const children = (pid: number): number[] => {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return list ? list.split(' ').map(Number) : [];
  } catch {
    return [];
  }
};

const rssOf = (pid: number): number => {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(line?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/**
 * The process in the tree under `pid` whose command line names `script` (for `npm start`:
 * apps/server's src/serve.ts, the API's server, or apps/web's scripts/serve-web.ts, Next), or `pid` itself.
 */
export function processIn(pid: number, script?: string): number {
  if (!script) return pid;
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i] ?? 0));
  return all.find((each) => commandLine(each).includes(script)) ?? pid;
}

/** Resident memory (MB) of that process (see processIn). */
export const serverRssMb = (pid: number, script?: string): number =>
  rssOf(processIn(pid, script)) / 2 ** 20;

/** Clock ticks per second in /proc's figures (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU time (user and system, seconds) the process has used; 0 where /proc cannot tell. */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS || 0;
  } catch {
    return 0;
  }
}

/** The machine's processes whose command line starts with `name` (e.g. every PostgreSQL backend). */
function processesNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => commandLine(pid).startsWith(name));
}

export interface CpuUse {
  server: number;
  postgres: number;
  redis: number;
}

/**
 * CPU seconds used so far by the server, by all of PostgreSQL and by Redis: the throughput of
 * two cores shared by all of them (and the load generator) follows their sum per request.
 */
export function cpuUse(server: number): CpuUse {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuSecondsOf(pid), 0);
  return {
    server: cpuSecondsOf(server),
    postgres: sum(processesNamed('postgres')),
    redis: sum(processesNamed('redis-server')),
  };
}
