import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serializeExchanges } from './socket-queue';
import postgres from 'postgres';
import { openDatabase, type Database } from './client';
import { markEmbedded } from './embedded';
import { migrateDatabase } from './migrate';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server of DATABASE_URL (dropped again by `close`).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ url: 'memory://' });
    await migrateDatabase(database);
    return database;
  }
  const name = `chorus_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: 5 });
  await migrateDatabase(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Like `createTestDatabase`, but always reachable over the PostgreSQL protocol (`url` set), as
 * pg-boss and other processes need: on the embedded default, an in-memory PGlite served on a
 * loopback port, as `npm start` serves it.
 */
export async function createTestServerDatabase(): Promise<Database & { url: string }> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase();
    return { ...database, url: database.url ?? '' };
  }
  const pglite = new PGlite();
  await pglite.waitReady;
  const server = await servePglite(pglite);
  const url = server.url;
  markEmbedded(url);
  const database = await openDatabase({ url, max: 5 });
  await migrateDatabase(database);
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await server.stop();
      await pglite.close();
    },
  };
}

/**
 * Serves a PGlite on a free loopback port over the PostgreSQL protocol, for clients that hold
 * several connections at once (pg-boss's pool, Bluesky's AppView in the publishing tests).
 */
export async function servePglite(pglite: PGlite) {
  // Several connections, as pg-boss's pool needs (stack-notes: one is not enough).
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port: 0,
    maxConnections: 32,
  });
  serializeExchanges(server);
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    stop: () => server.stop(),
  };
}
