import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The first run builds the app before it serves.
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
