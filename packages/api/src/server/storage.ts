import { storageFromEnv, type StorageDriver } from '@chorus/storage';

let configured: StorageDriver | undefined;

/**
 * The process's media store, from the environment (README, "Configuration"), made once.
 * `npm start` sets CHORUS_STORAGE_DIR to the data directory's `media/` by default.
 */
export function defaultStorage(): StorageDriver {
  configured ??= storageFromEnv(process.env);
  return configured;
}
