import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Database } from './client';

/** The committed drizzle-kit migrations (SQL and journal). */
export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

/** Any fixed number: the advisory lock that makes concurrent instances migrate one at a time. */
const MIGRATION_LOCK = 7_250_021;

/** Applies the committed drizzle-kit migrations; the same files on PGlite and PostgreSQL. */
export async function migrateDatabase({ db, driver, url }: Database): Promise<void> {
  if (driver === 'pglite' || !url) {
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // One dedicated connection holds the session lock and runs the migrations itself.
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const migrator = drizzle({ client });
    await migrator.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
    await migratePostgres(migrator, { migrationsFolder });
  } finally {
    await client.end({ timeout: 5 });
  }
}
