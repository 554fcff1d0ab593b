import { databaseSuite } from '@chorus/vitest-config/database-suite';
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
  test: { ...databaseSuite, sequence: { sequencer: SlowestFirst } },
});
