import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One server for every file (the global setup), driven by one file at a time.
    globalSetup: ['./test/server.ts'],
    fileParallelism: false,
    // The first run builds the app before it serves; a browser step can take a while.
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
