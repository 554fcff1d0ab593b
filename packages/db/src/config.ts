import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openDatabase, type Database } from './client';
import { markEmbedded, pgliteDir } from './embedded';
import { readEmbeddedServer } from './embedded-lock';

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

/** DATABASE_URL and CHORUS_DATA_DIR, read in one place. */
export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
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
export async function openConfiguredDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Database> {
  const { url, dataDir } = databaseOptionsFromEnv(env);
  if (url) return openDatabase({ url, max: 2 });
  const running = await readEmbeddedServer(dataDir);
  if (running) {
    markEmbedded(running.url);
    return openDatabase({ url: running.url, max: 2 });
  }
  return openDatabase({ url: `file://${pgliteDir(dataDir)}` });
}
