import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** pg-boss's own tables, in a schema apart from ours (packages/jobs runs the queue there). */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * How long ago, in seconds by the database's clock, a worker last ticked, or null when none
 * ever did. Every running worker's pg-boss stamps its `version` row's `cron_on` when it starts
 * and then every 30 s (its cron monitor: whichever worker comes first, so the stamp is the
 * newest of all the workers on the database). Rejects when pg-boss's schema is not there: no
 * worker has ever started on this database.
 */
export async function queueHeartbeatAge(db: Db): Promise<number | null> {
  const result: unknown = await db.execute(
    sql`select extract(epoch from now() - cron_on)::float8 as age from ${sql.identifier(QUEUE_SCHEMA)}.version`,
  );
  // postgres.js answers the rows as an array, PGlite as `{ rows }`.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    age: number | string | null;
  }[];
  const age = rows[0]?.age;
  return age === null || age === undefined ? null : Number(age);
}
