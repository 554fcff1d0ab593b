/**
 * The example internal app (`examples/internal-app`, on `@chorus/client`) run as its README
 * says, against the real `npm start` server: it lists users, creates a post, and reads the
 * spec's error code from a failed call.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const base = inject('base');

async function runExample(token: string) {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '-s', 'start', '-w', '@chorus/example-internal-app'],
    { cwd: inject('root'), env: { ...process.env, CHORUS_URL: base, CHORUS_TOKEN: token } },
  );
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the example internal app', () => {
  it('lists users, creates a post and reads a failure as a ChorusApiError', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-internal-app', 'read,content:read,content:write');
    const [users, post, missing] = await runExample(key);
    expect(users).toMatchObject({ step: 'users' });
    expect(users?.emails).toContain(ADMIN.email);
    expect(post).toMatchObject({ step: 'post', status: 'draft' });

    // The post is really there, as REST sees it.
    const res = await fetch(`${base}/api/content/posts/${String(post?.id)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ title: 'Written by the internal app' });

    expect(missing).toEqual({ step: 'missing', code: 'resource_not_found', status: 404 });
  });

  it('fails with the spec code when the key lacks a scope', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-internal-app-ro', 'content:read');
    await expect(runExample(key)).rejects.toThrow(
      /ChorusApiError[\s\S]*code: 'insufficient_scope'/,
    );
  });
});
