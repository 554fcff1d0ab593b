/**
 * `npm start`: builds what is not built, opens the database (the embedded PGlite served on
 * loopback unless DATABASE_URL is set), applies migrations, creates the first admin on a
 * first start, then runs the app's server (scripts/serve.ts: the API's doors and Next, in
 * production mode) on PORT. With --dev (`npm run dev`): the same without the build, and Next
 * in development mode.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  assertIntegrationConfig,
  assertMediaConfig,
  log,
  maxBatchFromEnv,
  rateLimitConfigFromEnv,
  trustedProxiesFromEnv,
} from '@chorus/api';
import { corsOriginsFromEnv } from '@chorus/api/server';
import { openDatabase } from '@chorus/db';
import {
  databaseOptionsFromEnv,
  loadEnvFile,
  migrateDatabase,
  startEmbeddedServer,
  type EmbeddedServer,
} from '@chorus/db/node';
import { runWorker } from '@chorus/jobs';
import { grantLifetimeMs, webhookSettings } from '@chorus/services';
import { createFirstAdmin } from './first-admin';
import { assertPortFree } from './port';

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

async function prepareDatabase(url: string, dataDir: string) {
  const database = await openDatabase({ url, max: 2 });
  try {
    await migrateDatabase(database);
    for (const line of await createFirstAdmin({ db: database.db, dataDir })) say(line);
  } finally {
    await database.close();
  }
}

/** A configuration that cannot work stops start-up here, naming the setting, not at a request. */
function checkConfiguration(env: NodeJS.ProcessEnv) {
  // Behind a deployment's proxy, the request's Host is whatever a client sent: links, the OAuth
  // issuer and the integrations' callback must come from configuration instead.
  if (env.NODE_ENV === 'production' && env.DATABASE_URL && !env.CHORUS_PUBLIC_URL?.trim()) {
    throw new Error(
      'CHORUS_PUBLIC_URL is not set: with DATABASE_URL, set the public origin (e.g. https://chorus.example.com).',
    );
  }
  assertIntegrationConfig(env);
  rateLimitConfigFromEnv(env);
  trustedProxiesFromEnv(env);
  corsOriginsFromEnv(env);
  grantLifetimeMs(env);
  assertMediaConfig(env);
  maxBatchFromEnv(env);
  webhookSettings(env);
}

/**
 * The embedded default keeps its own random encryption key beside the data it protects, so
 * a first `npm start` needs no setup; a deployment on DATABASE_URL sets CHORUS_ENCRYPTION_KEY.
 */
async function useEmbeddedEncryptionKey(dataDir: string) {
  process.env.CHORUS_ENCRYPTION_KEY ||= await keptSecret(dataDir, 'encryption.key');
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
async function useSessionSecret(dataDir: string | undefined, dev: boolean) {
  if (process.env.NEXTAUTH_SECRET || process.env.AUTH_SECRET) {
    process.env.NEXTAUTH_SECRET ||= process.env.AUTH_SECRET;
    return;
  }
  if (!dataDir) {
    if (!dev) {
      throw new Error(
        'NEXTAUTH_SECRET (or AUTH_SECRET) is not set: with DATABASE_URL, every instance needs the same session secret (generate one with `openssl rand -base64 32`).',
      );
    }
    say('NEXTAUTH_SECRET is not set: dashboard sessions last until this server stops.');
    process.env.NEXTAUTH_SECRET = randomBytes(32).toString('base64');
    return;
  }
  process.env.NEXTAUTH_SECRET = await keptSecret(dataDir, 'auth.secret');
}

/**
 * next-auth builds its URLs from NEXTAUTH_URL: the public URL when configured, otherwise the
 * Host of each request (the sign-in page never follows a URL it did not check itself).
 */
function useAuthUrl() {
  const publicUrl = process.env.CHORUS_PUBLIC_URL?.trim();
  // An empty value is no value: next-auth's client would fail to parse it on every page.
  if (!process.env.NEXTAUTH_URL?.trim()) delete process.env.NEXTAUTH_URL;
  if (!process.env.NEXTAUTH_URL && publicUrl) process.env.NEXTAUTH_URL = new URL(publicUrl).origin;
  if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';
}

async function main() {
  loadEnvFile();
  const dev = process.argv.includes('--dev');
  const port = process.env.PORT ?? '3000';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535)
    throw new Error(`PORT must be a port number (0 to 65535), not "${port}".`);
  await assertPortFree(port);
  const options = databaseOptionsFromEnv();
  if (!options.url) await useEmbeddedEncryptionKey(options.dataDir);
  await useSessionSecret(options.url ? undefined : options.dataDir, dev);
  // Uploaded media on local disk live beside the data, unless configured otherwise.
  process.env.CHORUS_STORAGE_DIR ||= join(options.dataDir, 'media');
  // `next start` runs in production mode: check the configuration as it will be read there.
  checkConfiguration({ ...process.env, NODE_ENV: dev ? 'development' : 'production' });
  useAuthUrl();
  if (!dev) build();
  let embedded: EmbeddedServer | undefined;
  if (!options.url) {
    embedded = await startEmbeddedServer(options.dataDir);
    say(`Embedded PostgreSQL (PGlite) in ${options.dataDir}`);
  }
  const databaseUrl = options.url ?? embedded?.url ?? '';
  await prepareDatabase(databaseUrl, options.dataDir);
  // The background jobs run here too, unless this instance serves the web alone
  // (CHORUS_WORKER=false, with `npm run worker` elsewhere).
  const worker =
    process.env.CHORUS_WORKER === 'false'
      ? undefined
      : await runWorker({
          databaseUrl,
          onError: (error) => log('error', 'job queue error', { error: error.message }),
        });

  // The HTTP server (Next and the API's doors) runs in a process of its own, so the embedded
  // database and the job worker here never compete with it for the event loop.
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/serve.ts', ...(dev ? ['--dev'] : [])],
    {
      cwd: appDir,
      // The channel tells when it listens: only then is it announced.
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: port,
        NODE_ENV: dev ? 'development' : 'production',
      },
    },
  );
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
