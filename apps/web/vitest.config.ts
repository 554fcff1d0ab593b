import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file opens its own database (PGlite starts in ~2 s, slower under load).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
  },
});
