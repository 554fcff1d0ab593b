/**
 * Global setup: the real app as a user runs it (`npm start`: build, database, migrations,
 * first admin, production server) on a free port with its own data directory, or on a fresh
 * PostgreSQL database when DATABASE_URL is set (the CI's second run).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@chorus/db/testing';
import type { TestProject } from 'vitest/node';
import { freePort, startChorus } from './processes';

export const ADMIN = { email: 'e2e-oauth-admin@example.test', password: 'e2e-admin-password' };

declare module 'vitest' {
  export interface ProvidedContext {
    base: string;
    env: Record<string, string>;
    root: string;
    dataDir: string;
    /** What `npm start` printed until it served. */
    startOutput: string;
    /** The process of `npm start`. */
    startPid: number;
    /** Everything `npm start` printed, as it printed it (its warnings and errors). */
    serverLog: string;
    /** A free port whose `http://localhost:<port>` origin is in CHORUS_CORS_ORIGINS. */
    corsPort: number;
  }
}

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'chorus-e2e-'));
  let databaseUrl = '';
  let closeDatabase = async () => {};
  const secrets = { CHORUS_ENCRYPTION_KEY: '', NEXTAUTH_SECRET: '' };
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    databaseUrl = database.url ?? '';
    closeDatabase = () => database.close();
    secrets.CHORUS_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    secrets.NEXTAUTH_SECRET = randomBytes(32).toString('base64');
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const corsPort = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    CHORUS_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ...secrets,
    AUTH_SECRET: '',
    NEXTAUTH_URL: '',
    // Required with DATABASE_URL (a deployment); the embedded default takes the request's.
    CHORUS_PUBLIC_URL: databaseUrl ? base : '',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    // The tests' webhook receivers listen on loopback.
    CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // A page served there calls the API across origins (cors.test.ts).
    CHORUS_CORS_ORIGINS: `http://localhost:${corsPort}`,
  };
  const serverLog = `${dataDir}.log`;
  const server = await startChorus(root, env, serverLog);
  project.provide('base', base);
  project.provide('env', env);
  project.provide('root', root);
  project.provide('dataDir', dataDir);
  project.provide('startOutput', server.output());
  project.provide('startPid', server.pid);
  project.provide('serverLog', serverLog);
  project.provide('corsPort', corsPort);

  return async () => {
    await server.stop();
    // Stopping withdraws the embedded database's announcement, or the CLI would look for it.
    const lockLeft = existsSync(join(dataDir, 'embedded-server.json'));
    await closeDatabase();
    await rm(dataDir, { recursive: true, force: true });
    await rm(serverLog, { force: true });
    if (lockLeft) throw new Error('npm start left embedded-server.json behind after it stopped');
  };
}
