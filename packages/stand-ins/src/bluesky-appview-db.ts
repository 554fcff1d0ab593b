import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { servePglite } from '@chorus/db/testing';
import postgres from 'postgres';

/**
 * The PostgreSQL database Bluesky's AppView (@atproto/bsky) keeps its index in: a fresh
 * database on the server of DATABASE_URL when set (dropped again by `drop`), else an in-memory
 * PGlite served on a loopback port, with the pg_trgm extension the AppView's schema creates.
 */
export async function appViewDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `bsky_appview_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const pglite = new PGlite({ extensions: { pg_trgm } });
  await pglite.waitReady;
  const server = await servePglite(pglite);
  return {
    url: server.url,
    drop: async () => {
      await server.stop();
      await pglite.close();
    },
  };
}
