import { openDatabase, type Database } from '@chorus/db';

const holder = globalThis as unknown as { chorusDatabase?: Promise<Database> };

async function open(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  // `npm start` and `npm run dev` set it, to the embedded database's loopback server by default.
  if (!url)
    throw new Error('DATABASE_URL is not set: run the app with `npm start` or `npm run dev`.');
  return openDatabase({ url });
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
