import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Files known to take the longest, started first. Vitest orders by the durations of the last
 * run, but a fresh clone (CI) has none and it falls back to file size: the fuzz test (a small
 * file, ~2 minutes) started last and ran alone at the end while the other worker sat idle.
 */
const SLOWEST = ['test/fuzz.test.ts', 'test/posts-export.test.ts'];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.findIndex((name) => file.moduleId.endsWith(name));
      return at === -1 ? SLOWEST.length : at;
    };
    // Array#sort is stable: the rest keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Each file opens its own database (from a migrated template: a second or so, more under load).
    testTimeout: 30_000,
    // Two files at once even on two cores (Vitest's default there is one): a file spends much
    // of its time waiting on its database, servers and child processes, not computing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowestFirst },
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
