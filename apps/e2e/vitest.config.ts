import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The page tours: a browser through every dashboard page and the API docs, with axe at two
 * widths; three quarters of this suite's time. CI's second pass, on PostgreSQL and Redis, leaves
 * them out (`E2E_PAGE_TOURS=skip`): the pages read and write through the API, which that pass
 * runs in full (the API's, services' and jobs' suites, and every other file here, sign-in with
 * TOTP and the OAuth consent in a browser included).
 */
const PAGE_TOURS = ['test/dashboard-*.test.ts', 'test/docs.test.ts'];

export default defineConfig({
  test: {
    // One server for every file (the global setup), driven by one file at a time.
    globalSetup: ['./test/server.ts'],
    fileParallelism: false,
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.E2E_PAGE_TOURS === 'skip' ? PAGE_TOURS : []),
    ],
    // The first run builds the app before it serves; a browser step can take a while.
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
