import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serializeExchanges } from './socket-queue';
import { readEmbeddedServer, removeEmbeddedLock, writeEmbeddedLock } from './embedded-lock';

export const pgliteDir = (dataDir: string) => `${dataDir}/pglite`;

export interface EmbeddedServer {
  /** A postgres:// URL on loopback that any PostgreSQL client (the app, the CLI) can use. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves the embedded PGlite database over the PostgreSQL wire protocol on loopback, so that
 * the web server and the CLI share one database while PGlite itself stays in one process.
 */
export async function startEmbeddedServer(dataDir: string, port = 0): Promise<EmbeddedServer> {
  const running = await readEmbeddedServer(dataDir);
  if (running) {
    throw new Error(
      `Another Chorus server (pid ${running.pid}) is using the data directory ${dataDir}. Stop it, or set CHORUS_DATA_DIR to another directory.`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const pglite = new PGlite(pgliteDir(dataDir));
  await pglite.waitReady;
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port,
    maxConnections: 32,
  });
  serializeExchanges(server);
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  markEmbedded(url);
  await writeEmbeddedLock(dataDir, url);
  return {
    url,
    stop: async () => {
      await removeEmbeddedLock(dataDir);
      await server.stop();
      await pglite.close();
    },
  };
}

/**
 * Names the embedded server's URL for this process and its children, so that clients know not
 * to prepare named statements on it (see `openPostgres`).
 */
export function markEmbedded(url: string) {
  process.env.CHORUS_EMBEDDED_DATABASE_URL = url;
}
