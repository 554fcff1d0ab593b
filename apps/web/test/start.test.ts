/**
 * The product as a new user runs it: `npm start` (build, database, migrations, first admin,
 * production server), the CLI printing a key, and REST calls with that key.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN = { email: 'e2e-admin@example.test', password: 'e2e-password' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitForHealth(base: string) {
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`the server stopped:\n${output}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

let server: ChildProcess;
let exited: Promise<unknown>;
let base: string;
let env: NodeJS.ProcessEnv;
let dataDir: string;
let closeDatabase = async () => {};
let output = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'chorus-start-'));
  // On the PostgreSQL run, a fresh database of its own; otherwise the embedded default.
  // A deployment on PostgreSQL brings its own encryption key; the embedded default makes one.
  let databaseUrl = '';
  let encryptionKey = '';
  let sessionSecret = '';
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    databaseUrl = database.url ?? '';
    encryptionKey = randomBytes(32).toString('base64');
    sessionSecret = randomBytes(32).toString('base64');
    closeDatabase = () => database.close();
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    CHORUS_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    CHORUS_ENCRYPTION_KEY: encryptionKey,
    NEXTAUTH_SECRET: sessionSecret,
    AUTH_SECRET: '',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  };
  // Its own process group, so that stopping it reaches npm, the start script and Next alike.
  server = spawn('npm', ['start'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  exited = new Promise((resolve) => server.once('exit', resolve));
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForHealth(base);
});

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** As a process manager stops a service: the whole group is signalled and every process exits. */
async function stopServer() {
  const pid = server.pid;
  if (!pid) return;
  if (groupAlive(pid)) process.kill(-pid, 'SIGTERM');
  await exited;
  while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 200));
}

afterAll(async () => {
  await stopServer();
  await closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('created the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
    expect(output).toContain(
      `created the admin ${ADMIN.email} with the password from ADMIN_PASSWORD`,
    );
    expect(output).not.toContain(ADMIN.password);
  });

  it.runIf(!process.env.DATABASE_URL)(
    'keeps a generated encryption key and session secret, readable by their owner only, in the data directory',
    () => {
      const key = statSync(join(dataDir, 'encryption.key'));
      expect(key.mode & 0o777).toBe(0o600);
      // The dashboard's session secret likewise.
      expect(statSync(join(dataDir, 'auth.secret')).mode & 0o777).toBe(0o600);
    },
  );

  it('serves the users API to a key printed by the CLI', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'cli',
        '--',
        'api-key',
        'create',
        '--email',
        ADMIN.email,
        '--name',
        'e2e',
        '--scopes',
        'read,write',
      ],
      { cwd: root, env },
    );
    const key = stdout.trim();
    expect(key).toMatch(/^csk_live_/);
    const res = await fetch(`${base}/api/users`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('1');
    const body = await res.json();
    expect(body).toEqual({
      data: [expect.objectContaining({ email: ADMIN.email, role: 'admin' })],
      pagination: { total: 1, page: 1, limit: 50, pages: 1 },
    });
  });

  it('answers 401 in the envelope without credentials', async () => {
    const res = await fetch(`${base}/api/users`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
  });

  it('serves the OpenAPI document and readable docs from the app itself', async () => {
    const doc = await fetch(`${base}/api/openapi.json`).then((r) => r.json());
    expect(doc.openapi).toBe('3.1.0');
    const page = await fetch(`${base}/docs`).then((r) => r.text());
    expect(page).toContain('/docs-assets/swagger-ui-bundle.js');
    expect(page).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await fetch(`${base}/docs-assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
  });

  it('announces the embedded database to the CLI while running, and withdraws it on stop', async () => {
    const lock = join(dataDir, 'embedded-server.json');
    expect(existsSync(lock)).toBe(!process.env.DATABASE_URL);
    await stopServer();
    expect(existsSync(lock)).toBe(false);
  });
});
