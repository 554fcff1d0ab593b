import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type { Database } from './client';

const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

/** Any fixed number: the advisory lock that makes concurrent instances migrate one at a time. */
const MIGRATION_LOCK = 7_250_021;

/** Applies the committed drizzle-kit migrations; the same files on PGlite and PostgreSQL. */
export async function migrateDatabase({ db, driver }: Database): Promise<void> {
  if (driver === 'pglite') {
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // The transaction only holds the lock; the migrator runs on another pooled connection.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await migratePostgres(db as unknown as PostgresJsDatabase, { migrationsFolder });
  });
}
