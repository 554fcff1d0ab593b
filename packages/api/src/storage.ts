import { databaseOptionsFromEnv } from '@chorus/db/node';
import { storageFromEnv, type StorageDriver } from '@chorus/storage';

let configured: StorageDriver | undefined;

/** The process's media store, from the environment (README, "Configuration"), made once. */
export function defaultStorage(): StorageDriver {
  configured ??= storageFromEnv(process.env, { dataDir: databaseOptionsFromEnv().dataDir });
  return configured;
}
