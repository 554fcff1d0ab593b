/**
 * `npm run worker`: the background jobs alone (the scheduler, webhook deliveries, syncs), so a
 * deployment can scale web servers and workers apart. `npm start` runs the same in-process.
 */
import { log } from '@chorus/api';
import {
  databaseOptionsFromEnv,
  loadEnvFile,
  markEmbedded,
  readEmbeddedServer,
} from '@chorus/db/node';
import { runWorker } from '@chorus/jobs';
import { parseSettings } from '@chorus/settings';

/** DATABASE_URL, or the embedded database that a running `npm start` serves on loopback. */
async function databaseUrl(): Promise<string> {
  const { url, dataDir } = databaseOptionsFromEnv();
  const embedded = url ? undefined : await readEmbeddedServer(dataDir);
  if (embedded) markEmbedded(embedded.url);
  const found = url ?? embedded?.url;
  if (!found) {
    throw new Error(
      `Set DATABASE_URL, or start the server (npm start), which serves the embedded database in ${dataDir}.`,
    );
  }
  return found;
}

async function main() {
  loadEnvFile();
  // A bad setting stops the worker here, naming it, as it stops `npm start`.
  parseSettings(process.env);
  const worker = await runWorker({
    databaseUrl: await databaseUrl(),
    onError: (error) => log('error', 'job queue error', { error: error.message }),
  });
  log('info', 'worker started');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[chorus] The worker could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
