import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

/** One type for both drivers: services never know which engine they run on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** `postgres` for a server (DATABASE_URL or the embedded server's socket), `pglite` in-process. */
  driver: 'postgres' | 'pglite';
  /** The server's URL (postgres driver only). */
  url?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL, `memory://` for a throw-away in-process database, or `file://DIR` for PGlite in DIR. */
  url: string;
  /** Connection pool size for postgres.js. */
  max?: number;
}

/** The one client factory: PostgreSQL through postgres.js, or PGlite in this process. */
export async function openDatabase({ url, max = 10 }: DatabaseOptions): Promise<Database> {
  if (url === 'memory://') return openPglite(new PGlite());
  if (url.startsWith('file://')) return openPglite(new PGlite(url.slice('file://'.length)));
  return openPostgres(url, max);
}

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
  const embedded = url === process.env.CHORUS_EMBEDDED_DATABASE_URL;
  // The embedded server's connections share one PGlite session, where the extended-protocol
  // messages of two connections interleave (one's Bind lands on the other's statement): one
  // connection, whose queries PGlite sees in order.
  const client = postgres(url, {
    max: embedded ? 1 : max,
    onnotice: () => {},
    connect_timeout: 10,
  });
  // Drizzle runs its queries through `unsafe`, which postgres.js sends unprepared: the server
  // would parse and plan every query again. Prepared, each distinct query text (parameters
  // apart) is planned once per connection.
  // Not on the embedded server: its connections share one PGlite session, where named
  // statements of different connections would collide.
  if (!embedded) {
    const unsafe = client.unsafe.bind(client);
    client.unsafe = ((query, parameters, options) =>
      unsafe(query, parameters, { ...options, prepare: true })) as typeof client.unsafe;
  }
  const db = drizzlePostgres({ client, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    url,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.end({ timeout: 5 }),
  };
}
