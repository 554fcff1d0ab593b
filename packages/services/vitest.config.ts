import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file opens its own database (from a migrated template: a second or so, more under load).
    testTimeout: 30_000,
    // Two files at once even on two cores (Vitest's default there is one): a file spends much
    // of its time waiting on its database, servers and child processes, not computing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
    // A worker's files share its process, so the app's modules load once per worker: loading
    // them again for every file was a third of this suite's time. What a file sets in
    // process.env is undone when it ends (restore-env); other state lives in each file's
    // harness (its own database, servers and limiters).
    isolate: false,
    setupFiles: ['@chorus/vitest-config/restore-env'],
    env: { LOG_LEVEL: 'silent' },
  },
});
