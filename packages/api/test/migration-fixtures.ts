import { readFile } from 'node:fs/promises';
import { sql } from '@chorus/db';
import type { Harness } from './harness';

/**
 * Runs the migration whose tag ends with `name` (`_mastodon_channel_instance`) again, statement
 * by statement as drizzle runs them, on rows a test wrote as an earlier version stored them.
 */
export async function runMigration(h: Harness, name: string) {
  const folder = new URL('../../db/drizzle/', import.meta.url);
  const journal = JSON.parse(await readFile(new URL('meta/_journal.json', folder), 'utf8')) as {
    entries: { tag: string }[];
  };
  const entry = journal.entries.find((e) => e.tag.endsWith(name));
  if (!entry) throw new Error(`no migration ${name}`);
  const text = await readFile(new URL(`${entry.tag}.sql`, folder), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    await h.db.execute(sql.raw(statement));
  }
}
