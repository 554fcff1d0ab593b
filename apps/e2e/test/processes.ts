/**
 * Real processes for the end-to-end tests: `npm start` as a user runs it, and private
 * PostgreSQL and Redis servers that a test may stop and start again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops a process group started `detached`, and waits until none of it is left. */
async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  const pid = child.pid;
  if (!pid) return;
  if (groupAlive(pid)) process.kill(-pid, signal);
  while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

export interface Chorus {
  base: string;
  /** The process of `npm start`, the root of the app's processes. */
  pid: number;
  /** What `npm start` printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `npm start` with `env` (PORT included), in its own process group so that stopping it
 * reaches npm, the start script and Next alike; resolves once /api/health answers.
 */
export async function startChorus(
  root: string,
  env: Record<string, string>,
  /** A file that receives everything it prints, as it prints it. */
  logFile?: string,
): Promise<Chorus> {
  const base = `http://127.0.0.1:${env.PORT}`;
  let output = '';
  const server = spawn('npm', ['start'], {
    cwd: root,
    // Next's types (reached through @chorus/client's types) make NODE_ENV required.
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (logFile) appendFileSync(logFile, chunk);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`the server stopped:\n${output}`);
    }
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { base, pid: server.pid ?? 0, output: () => output, stop: () => stopGroup(server) };
}

/** The newest PostgreSQL server programs installed (Debian keeps them out of PATH). */
async function postgresBin(): Promise<string> {
  const versions = await readdir('/usr/lib/postgresql').catch(() => []);
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('no PostgreSQL server programs in /usr/lib/postgresql');
  return join('/usr/lib/postgresql', newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function asPostgres(program: string, args: string[]) {
  const [command, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
      : [program, args];
  const result = spawnSync(command, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${program} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  }
}

export interface Service {
  url: string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it for good and removes its files. */
  remove: () => Promise<void>;
}

/** A PostgreSQL cluster of its own (initdb in a temporary directory), on a free port. */
export async function startPostgres(): Promise<Service> {
  const bin = await postgresBin();
  const dir = await mkdtemp(join(tmpdir(), 'chorus-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds('postgres');
    await chown(dir, uid, gid);
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const pgCtl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = async () =>
    pgCtl(
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    );
  // `immediate`: as a crash would, cutting every connection and transaction at once.
  const stop = async () => pgCtl('-w', '-m', 'immediate', 'stop');
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: async () => {
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string) {
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout);
  const [uid, gid] = [id('-u'), id('-g')];
  if (!uid || !gid) throw new Error(`no user ${name}`);
  return { uid, gid };
}

/** A Redis server of its own, without persistence, on a free port. */
export async function startRedis(): Promise<Service> {
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore', detached: true },
    );
    for (;;) {
      const up = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
      if (up.stdout.trim() === 'PONG') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stop = async () => {
    if (server) await stopGroup(server, 'SIGKILL');
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, remove: stop };
}
