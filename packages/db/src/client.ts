import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';
import { readEmbeddedServer } from './embedded-lock';

/** One type for both drivers: services never know which engine they run on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** `postgres` for a server (DATABASE_URL or the embedded server's socket), `pglite` in-process. */
  driver: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL, or `memory://` for a throw-away in-process database. */
  url?: string;
  /** Where the embedded database lives when no URL is given. */
  dataDir?: string;
  /** Connection pool size for postgres.js. */
  max?: number;
}

/**
 * The one client factory. A URL means a PostgreSQL server; without one, the embedded PGlite
 * in `dataDir` — reached through the running Chorus server's socket when one holds it
 * (PGlite allows one process at a time), or opened in this process otherwise.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { url, dataDir, max = 10 } = options;
  if (url === 'memory://') return openPglite(new PGlite());
  if (url) return openPostgres(url, max);
  if (!dataDir) throw new Error('openDatabase needs a url or a dataDir');
  const running = await readEmbeddedServer(dataDir);
  if (running) return openPostgres(running.url, max);
  return openPglite(new PGlite(pgliteDir(dataDir)));
}

export const pgliteDir = (dataDir: string) => `${dataDir}/pglite`;

export async function openPglite(client: PGlite): Promise<Database> {
  await client.waitReady;
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

function openPostgres(url: string, max: number): Database {
  const client = postgres(url, { max, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzlePostgres({ client, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.end({ timeout: 5 }),
  };
}
