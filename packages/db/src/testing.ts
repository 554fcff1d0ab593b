import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serializeExchanges } from './socket-queue';
import postgres from 'postgres';
import { openDatabase, openPglite, type Database } from './client';
import { markEmbedded } from './embedded';
import { migrateDatabase, migrationsFolder } from './migrate';

export { startTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server of DATABASE_URL (dropped again by `close`).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openPglite(await migratedPglite());
  const name = `chorus_test_${randomBytes(6).toString('hex')}`;
  const template = await (serverTemplate ??= migratedTemplate(serverUrl));
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  const database = await openDatabase({ url: databaseUrl(serverUrl, name), max: 5 });
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
  const pglite = await migratedPglite();
  const server = await servePglite(pglite);
  const url = server.url;
  markEmbedded(url);
  const database = await openDatabase({ url, max: 5 });
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

/**
 * An in-memory PGlite with every migration applied, started from a migrated data directory
 * rather than from nothing: a fresh PGlite runs initdb (2–5 s of CPU on a 2-core machine, per
 * test file), and then the migrations. The data directory is made once per set of migrations
 * and version of PGlite, by migrating a fresh PGlite as `createTestDatabase` always did, and
 * kept in the system's temporary folder for every later test process (as PostgreSQL's
 * `CREATE DATABASE … TEMPLATE` would).
 */
async function migratedPglite(): Promise<PGlite> {
  const pglite = new PGlite({ loadDataDir: await (template ??= migratedDataDir()) });
  await pglite.waitReady;
  return pglite;
}

let template: Promise<Blob> | undefined;

const TEMPLATES_DIR = join(tmpdir(), 'chorus-pglite-templates');

async function migratedDataDir(): Promise<Blob> {
  const file = join(TEMPLATES_DIR, `${await migrationsKey()}.tar`);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return new Blob([kept]);
  const fresh = new PGlite();
  const database = await openPglite(fresh);
  await migrateDatabase(database);
  const dump = await fresh.dumpDataDir('none');
  await database.close();
  // Written whole under another name first: a process reading it never sees half a file.
  await mkdir(TEMPLATES_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  await removeStale(file);
  return dump;
}

/** Templates of earlier migrations are never read again (a process reading one keeps it open). */
async function removeStale(current: string) {
  for (const name of await readdir(TEMPLATES_DIR))
    if (name.endsWith('.tar') && join(TEMPLATES_DIR, name) !== current)
      await rm(join(TEMPLATES_DIR, name), { force: true });
}

/** What the template depends on: the migration files (SQL and journal) and PGlite's version. */
async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256');
  // The package's entry is in its dist/ folder, beside which its package.json is.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(
    await readFile(join(dirname(entry), '..', 'package.json'), 'utf8'),
  ) as { version: string };
  hash.update(version);
  const files = await readdir(migrationsFolder, { recursive: true, withFileTypes: true });
  const paths = files
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const path of paths)
    hash.update(path.slice(migrationsFolder.length)).update(await readFile(path));
  return hash.digest('hex').slice(0, 32);
}

let serverTemplate: Promise<string> | undefined;

/** Lets one process at a time make the template (any fixed number). */
const TEMPLATE_LOCK = 7_250_022;

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The same on PostgreSQL: a migrated template database on the server, one per set of migrations,
 * that each test database is copied from (`CREATE DATABASE … TEMPLATE`, ≈150 ms against ≈700 ms
 * to create one and migrate it). The first process makes it under a lock, under another name
 * until it is whole; the others wait for the lock and find it made.
 */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `chorus_template_${(await migrationsKey()).slice(0, 16)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    // A session lock: released when `admin` ends, whatever happens in between.
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK})`;
    const [made] = await admin`select 1 from pg_database where datname = ${name}`;
    if (made) return name;
    const partial = `${name}_partial`;
    await admin.unsafe(`drop database if exists ${partial} with (force)`);
    await admin.unsafe(`create database ${partial}`);
    const database = await openDatabase({ url: databaseUrl(serverUrl, partial), max: 1 });
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    await admin.unsafe(`alter database ${partial} rename to ${name}`);
    // Templates of earlier migrations: dropped unless a test run is copying one right now.
    const stale = await admin<{ datname: string }[]>`
      select datname from pg_database
      where datname like 'chorus\\_template\\_%' and datname <> ${name}`;
    for (const { datname } of stale)
      await admin.unsafe(`drop database if exists ${datname}`).catch(() => {});
    return name;
  } finally {
    await admin.end();
  }
}
