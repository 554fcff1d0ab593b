import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { openDatabase, type Database } from './client';
import { markEmbedded, pgliteDir } from './embedded';
import { readEmbeddedServer } from './embedded-lock';

/** The variables these read (and `loadEnvFile` writes): `process.env` or a test's own. */
type Env = Record<string, string | undefined>;

/** The repository (npm workspaces) root above `from`, so every command finds the same data. */
function workspaceRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in JSON.parse(readFileSync(manifest, 'utf8'))) {
      return dir;
    }
    if (dirname(dir) === dir) return resolve(from);
  }
}

/**
 * Reads `.env` at the repository root into `env`, for each variable not set already (the
 * environment wins, as with `node --env-file`), so that `npm start`, `npm run worker` and the
 * CLI read the same settings. No file, no change. `.env.example` lists every setting.
 * Returns the names it set.
 */
export function loadEnvFile(from = process.cwd(), env: Env = process.env) {
  const file = join(workspaceRoot(from), '.env');
  if (!existsSync(file)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

/** DATABASE_URL and CHORUS_DATA_DIR, read in one place. */
export function databaseOptionsFromEnv(env: Env = process.env) {
  const url = env.DATABASE_URL?.trim() || undefined;
  const dataDir = resolve(
    env.CHORUS_DATA_DIR?.trim() || join(workspaceRoot(process.cwd()), '.data'),
  );
  return { url, dataDir };
}

/**
 * The database a command-line process should use: DATABASE_URL when set; otherwise the
 * embedded PGlite in the data directory, through the running server's loopback socket when
 * a server holds it (PGlite allows one process at a time), or opened here when none does.
 */
export async function openConfiguredDatabase(env: Env = process.env): Promise<Database> {
  const { url, dataDir } = databaseOptionsFromEnv(env);
  if (url) return openDatabase({ url, max: 2 });
  const running = await readEmbeddedServer(dataDir);
  if (running) {
    markEmbedded(running.url);
    return openDatabase({ url: running.url, max: 2 });
  }
  // A first command on a fresh machine, before any `npm start`: the directory may not exist.
  mkdirSync(dataDir, { recursive: true });
  return openDatabase({ url: `file://${pgliteDir(dataDir)}` });
}
