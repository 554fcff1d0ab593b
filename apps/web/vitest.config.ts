import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Next's tsconfig keeps JSX as written (`preserve`); the unit tests render components, so
  // JSX is compiled here for React's automatic runtime.
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    // Each file opens its own database (from a migrated template: a second or so, more under load).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
  },
});
