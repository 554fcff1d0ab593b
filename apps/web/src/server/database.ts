import { openDatabase, type Database } from '@chorus/db';
import { readSetting } from '@chorus/settings';

const holder = globalThis as unknown as { chorusDatabase?: Promise<Database> };

async function open(): Promise<Database> {
  const url = readSetting('DATABASE_URL', process.env);
  // `npm start` and `npm run dev` set it, to the embedded database's loopback server by default.
  if (!url)
    throw new Error('DATABASE_URL is not set: run the app with `npm start` or `npm run dev`.');
  return openDatabase({ url, max: readSetting('DATABASE_POOL_MAX', process.env) });
}

/**
 * The process's database, opened on first use (never at import, so `next build` workers
 * open nothing) and kept on globalThis so hot reloads and route bundles share one pool.
 */
export function getDatabase(): Promise<Database> {
  holder.chorusDatabase ??= open().catch((error: unknown) => {
    holder.chorusDatabase = undefined;
    throw error;
  });
  return holder.chorusDatabase;
}
