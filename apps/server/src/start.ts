/**
 * `npm start`: parses the settings, builds what is not built, opens the database (the embedded
 * PGlite served on loopback unless DATABASE_URL is set), applies migrations, creates the first
 * admin on a first start, then runs the app's server (src/serve.ts: the API's doors and Next,
 * in production mode) on PORT, and the background jobs in this process. With --dev
 * (`npm run dev`): the same without the build, and Next in development mode.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { log } from '@chorus/api';
import { openDatabase } from '@chorus/db';
import {
  databaseOptionsFromEnv,
  loadEnvFile,
  migrateDatabase,
  startEmbeddedServer,
  type EmbeddedServer,
} from '@chorus/db/node';
import { runWorker } from '@chorus/jobs';
import { parseSettings, type Settings } from '@chorus/settings';
import { apiEnv, webEnv } from './child-envs';
import { createFirstAdmin } from './first-admin';
import { assertPortFree } from './port';
import { checkSettings } from './settings';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const say = (line: string) => process.stdout.write(`[chorus] ${line}\n`);

function build() {
  // Turbo rebuilds only when an input changed; otherwise it restores the cached build.
  const turbo = require.resolve('turbo/bin/turbo');
  const result = spawnSync(
    process.execPath,
    [turbo, 'run', 'build', '--filter=@chorus/web', '--output-logs=errors-only'],
    {
      cwd: appDir,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('The build failed; see the output above.');
}

async function prepareDatabase(url: string, dataDir: string, settings: Settings) {
  const database = await openDatabase({ url, max: 2 });
  try {
    await migrateDatabase(database);
    const { ADMIN_EMAIL, ADMIN_PASSWORD } = settings;
    const env = { ADMIN_EMAIL, ADMIN_PASSWORD };
    for (const line of await createFirstAdmin({ db: database.db, dataDir, env })) say(line);
  } finally {
    await database.close();
  }
}

/** A random secret kept in the data directory (owner-only), made on first use. */
async function keptSecret(dataDir: string, name: string): Promise<string> {
  const file = join(dataDir, name);
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (kept) return kept;
  const secret = randomBytes(32).toString('base64');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * The secret of dashboard sessions (next-auth). Like the encryption key: generated and kept in
 * the data directory for the embedded default; a deployment on DATABASE_URL sets it, because
 * every instance must share it (the development server makes one up per run).
 */
async function sessionSecret(settings: Settings, dataDir: string | undefined, dev: boolean) {
  const given = settings.NEXTAUTH_SECRET ?? settings.AUTH_SECRET;
  if (given) return given;
  if (dataDir) return keptSecret(dataDir, 'auth.secret');
  if (!dev) {
    throw new Error(
      'NEXTAUTH_SECRET (or AUTH_SECRET) is not set: with DATABASE_URL, every instance needs the same session secret (generate one with `openssl rand -base64 32`).',
    );
  }
  say('NEXTAUTH_SECRET is not set: dashboard sessions last until this server stops.');
  return randomBytes(32).toString('base64');
}

/**
 * What the settings leave to `npm start`: the embedded default keeps its own random encryption
 * key and session secret beside the data they protect, so a first start needs no setup (a
 * deployment on DATABASE_URL sets them), and uploaded media live beside the data.
 */
async function completeSettings(settings: Settings, dataDir: string, dev: boolean) {
  const embedded = !settings.DATABASE_URL;
  return {
    ...settings,
    CHORUS_ENCRYPTION_KEY:
      settings.CHORUS_ENCRYPTION_KEY ??
      (embedded ? await keptSecret(dataDir, 'encryption.key') : undefined),
    NEXTAUTH_SECRET: await sessionSecret(settings, embedded ? dataDir : undefined, dev),
    CHORUS_STORAGE_DIR: settings.CHORUS_STORAGE_DIR ?? join(dataDir, 'media'),
  };
}

async function main() {
  loadEnvFile();
  const dev = process.argv.includes('--dev');
  const nodeEnv = dev ? 'development' : 'production';
  const { dataDir } = databaseOptionsFromEnv();
  const parsed = parseSettings(process.env);
  await assertPortFree(String(parsed.PORT));
  const settings = await completeSettings(parsed, dataDir, dev);
  // The worker runs in this process and reads what was completed from its environment.
  for (const name of ['CHORUS_ENCRYPTION_KEY', 'NEXTAUTH_SECRET', 'CHORUS_STORAGE_DIR'] as const)
    if (settings[name] !== undefined) process.env[name] = settings[name];
  // `next start` runs in production mode: check the configuration as it will be read there.
  checkSettings({ ...process.env, NODE_ENV: nodeEnv }, settings);
  if (!dev) build();
  let embedded: EmbeddedServer | undefined;
  if (!settings.DATABASE_URL) {
    embedded = await startEmbeddedServer(dataDir);
    say(`Embedded PostgreSQL (PGlite) in ${dataDir}`);
  }
  const databaseUrl = settings.DATABASE_URL ?? embedded?.url ?? '';
  await prepareDatabase(databaseUrl, dataDir, settings);
  // The background jobs run here too, unless this instance serves the web alone
  // (CHORUS_WORKER=false, with `npm run worker` elsewhere).
  const worker = settings.CHORUS_WORKER
    ? await runWorker({
        databaseUrl,
        onError: (error) => log('error', 'job queue error', { error: error.message }),
      })
    : undefined;

  // The HTTP server (Next and the API's doors) runs in a process of its own, so the embedded
  // database and the job worker here never compete with it for the event loop. Each child
  // gets the settings it reads, and no other variable of this process.
  const given = {
    env: process.env,
    settings: { ...settings, DATABASE_URL: databaseUrl },
    nodeEnv,
    embeddedUrl: embedded?.url,
  } as const;
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/serve.ts', ...(dev ? ['--dev'] : [])],
    {
      cwd: appDir,
      // The channel hands Next's environment over, and tells when the server listens: only
      // then is it announced.
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: apiEnv(given),
    },
  );
  server.send({ webEnv: webEnv(given) });
  server.on('message', (message: { listening?: number }) => {
    if (message.listening !== undefined)
      say(`Serving on http://localhost:${message.listening} (API docs at /docs)`);
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.on('exit', async (code) => {
    await worker?.stop();
    await embedded?.stop();
    // Stopped by a signal (ours), it ends as asked; any other end is a failure to report.
    process.exit(code ?? (stopping ? 0 : 1));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[chorus] Could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
