import { readEmbeddedServer } from '@chorus/db/node';
import postgres from 'postgres';
import { inject } from 'vitest';

/** The suite's database: PostgreSQL's when set, else the embedded one the server announces. */
export async function suiteDatabase() {
  const env = inject('env');
  const url = env.DATABASE_URL || (await readEmbeddedServer(inject('dataDir')))?.url;
  if (!url) throw new Error('no database announced');
  return postgres(url, { max: 1, onnotice: () => {} });
}
