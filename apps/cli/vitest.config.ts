import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file opens its own database (from a migrated template: a second or so, more under load).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
  },
});
