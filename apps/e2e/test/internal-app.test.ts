/**
 * Internal apps (issue 13): `@chorus/client` and the example app in `examples/internal-app`
 * against the real product, and the compiler refusing a wrong input.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ChorusApiError, createChorusClient } from '@chorus/client';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const run = promisify(execFile);
let key = '';

beforeAll(async () => {
  key = await cliApiKey(ADMIN.email, 'e2e-internal-app', 'read,content:read,content:write');
});

describe('the example internal app', () => {
  it('lists users, creates a post and reports a refusal, through @chorus/client', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'examples/internal-app/src/main.ts'],
      {
        cwd: inject('root'),
        env: {
          ...inject('env'),
          CHORUS_URL: inject('base'),
          CHORUS_TOKEN: key,
        } as unknown as NodeJS.ProcessEnv,
      },
    );
    // The app lists the newest five users: the same ones the REST door answers (the suite's
    // other files add users, so which five they are depends on the order the files ran in).
    const answer = await fetch(`${inject('base')}/api/users?limit=5`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const newest = (await answer.json()) as {
      data: { name: string; email: string; role: string }[];
      pagination: { total: number };
    };
    expect(stdout).toMatch(new RegExp(`^users: ${newest.pagination.total}$`, 'm'));
    for (const user of newest.data) {
      expect(stdout).toContain(`- ${user.name} <${user.email}> (${user.role})`);
    }
    expect(stdout).toMatch(/^created post post_[0-9A-Z]{26} \(draft\)$/m);
    expect(stdout).toContain('refused: 404 resource_not_found');
  });

  it('does not compile a call with a wrong input', { timeout: 120_000 }, async () => {
    const app = join(inject('root'), 'examples/internal-app');
    const dir = join(app, '.typecheck-wrong-input');
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(
        join(dir, 'wrong.ts'),
        `import { createChorusClient } from '@chorus/client';\n` +
          `const chorus = createChorusClient({ url: 'http://localhost', token: 'x' });\n` +
          `export const wrong = () => chorus.posts.create.mutate({ title: 42 });\n`,
      );
      await writeFile(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: '@chorus/tsconfig/base.json', include: ['wrong.ts'] }),
      );
      const tsc = join(inject('root'), 'node_modules/typescript/bin/tsc');
      const failed = await run(process.execPath, [tsc, '--noEmit', '-p', dir]).then(
        () => null,
        (error: { stdout: string }) => error.stdout,
      );
      expect(failed).toMatch(
        /wrong\.ts\(3,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('@chorus/client', () => {
  const client = (token = key) => createChorusClient({ url: inject('base'), token });

  it('answers typed data, batching calls made together', async () => {
    const [users, posts] = await Promise.all([
      client().users.list.query({ limit: 1 }),
      client().posts.list.query({ limit: 1 }),
    ]);
    expect(users.pagination.limit).toBe(1);
    expect(posts.success).toBe(true);
  });

  it('turns refusals into ChorusApiError with the spec’s code, status and details', async () => {
    const invalid = await client()
      .posts.create.mutate({ title: '' })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ChorusApiError);
    expect(invalid).toMatchObject({ code: 'validation_error', status: 400 });
    expect((invalid as ChorusApiError).details?.issues).toEqual([
      expect.objectContaining({ path: 'title' }),
    ]);
    const scope = await client()
      .webhooks.create.mutate({ url: 'https://hooks.example.com', events: ['*'] })
      .catch((error: unknown) => error);
    expect(scope).toMatchObject({ code: 'insufficient_scope', status: 403 });
    const unknown = await client('csk_live_not-a-key')
      .users.list.query({})
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'unauthorized', status: 401 });
    const down = await createChorusClient({ url: 'http://127.0.0.1:9', token: key })
      .users.list.query({})
      .catch((error: unknown) => error);
    expect(down).toMatchObject({ code: 'network_error', status: 0 });
  });
});
