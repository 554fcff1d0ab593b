/**
 * Run before each test file. With `isolate: false` the files of a worker share its process,
 * so what one file sets in `process.env` is undone when it ends: no file sees another's
 * settings.
 */
import { afterAll } from 'vitest';

const before = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) {
    if (!(key in before)) delete process.env[key];
  }
  Object.assign(process.env, before);
});
