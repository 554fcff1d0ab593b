import { openDatabase } from '@chorus/db';
import { databaseOptionsFromEnv } from '@chorus/db/node';
import { appOrigin, sharedMediaUrl } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { storageFromEnv } from '@chorus/storage';
import { startWorker } from './worker';

/**
 * Where networks that fetch media by URL (Instagram, Threads) reach our signed links:
 * CHORUS_PUBLIC_URL, else the port `npm start` serves on (reachable by local stand-ins only).
 */
const publicOrigin = () => appOrigin(`http://localhost:${readSetting('PORT', process.env)}`);

/**
 * A worker with its own database pool, as a process runs it (`npm start` in-process, or
 * `npm run worker` alone). `stop` lets running jobs finish, then closes the pool.
 */
export async function runWorker(opts: { databaseUrl: string; onError: (error: Error) => void }) {
  // Publishing reads attachments where the API stored them (a bad setting stops the start).
  const storage = storageFromEnv(process.env, { dataDir: databaseOptionsFromEnv().dataDir });
  const database = await openDatabase({ url: opts.databaseUrl, max: 5 });
  try {
    const worker = await startWorker({
      databaseUrl: opts.databaseUrl,
      db: database.db,
      media: { storage, sign: (row) => sharedMediaUrl(publicOrigin(), row.id) },
      onError: opts.onError,
    });
    return {
      stop: async () => {
        await worker.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
