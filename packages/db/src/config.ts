import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
