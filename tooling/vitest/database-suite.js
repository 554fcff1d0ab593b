// JavaScript: Vitest's config loader hands a workspace package's files to Node as they are.
import { availableParallelism } from 'node:os';

/**
 * The Vitest settings of the suites that run the app against a database (db, services, api,
 * jobs).
 * @type {NonNullable<import('vitest/config').ViteUserConfig['test']>}
 */
export const databaseSuite = {
  // Each file opens its own database (from a migrated template: a second or so, more under load).
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Two files at once even on two cores (Vitest's default there is one): a file spends much
  // of its time waiting on its database, servers and child processes, not computing.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker's files share its process, so the app's modules load once per worker: loading
  // them again for every file was a third of the API suite's time. What a file sets in
  // process.env is undone when it ends (restore-env.ts); other state lives in each file's
  // harness (its own database, servers and limiters).
  isolate: false,
  setupFiles: ['@chorus/vitest-config/restore-env'],
  env: { LOG_LEVEL: 'silent' },
};
