/**
 * Build once, start many: the build's hash must not depend on runtime settings, or a second
 * instance started with another database would rebuild the app under a running one.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const turbo = createRequire(import.meta.url).resolve('turbo/bin/turbo');

function buildHash(env: Record<string, string>): string {
  const out = execFileSync(
    process.execPath,
    [turbo, 'run', 'build', '--filter=@chorus/web', '--dry=json'],
    { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  const plan = JSON.parse(out) as { tasks: { taskId: string; hash: string }[] };
  const task = plan.tasks.find((t) => t.taskId === '@chorus/web#build');
  if (!task) throw new Error('no build task in the plan');
  return task.hash;
}

describe('the build', () => {
  it('has the same hash whatever the database, Redis, port or NODE_ENV', () => {
    const one = buildHash({
      DATABASE_URL: 'postgres://one/db',
      REDIS_URL: 'redis://one',
      PORT: '1',
    });
    const other = buildHash({
      DATABASE_URL: 'postgres://other/db',
      REDIS_URL: 'redis://other',
      PORT: '2',
      NODE_ENV: 'production',
    });
    expect(other).toBe(one);
  });
});
