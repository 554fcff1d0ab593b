/**
 * `@chorus/client` as a published package (issue 24 item 4): built and packed with `npm pack`,
 * installed from the tarball into an empty project outside the repository (its dependencies
 * from the registry), type-checked strict under NodeNext without skipLibCheck, and run with
 * plain Node against the real server.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cliApiKey } from './cli';
import { ADMIN } from './server';

const run = promisify(execFile);
const root = inject('root');
let project = '';
let key = '';

/**
 * The environment without npm's own variables: run from `npm test`, they would point the
 * project's npm at the repository (its prefix, its workspaces).
 */
const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_|^INIT_CWD$/i.test(name)),
  ) as NodeJS.ProcessEnv;

const versionOf = async (name: string) =>
  (
    JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const PROGRAM = `import { ChorusApiError, createChorusClient, type ChorusOutputs } from '@chorus/client';

const chorus = createChorusClient({
  url: process.env.CHORUS_URL ?? '',
  token: process.env.CHORUS_TOKEN ?? '',
});
const page: ChorusOutputs['users']['list'] = await chorus.users.list.query({ limit: 5 });
console.log(\`users: \${page.pagination.total}\`);
for (const user of page.data) console.log(\`- \${user.email} (\${user.role})\`);
try {
  await chorus.users.get.query({ userId: 'usr_00000000000000000000000000' });
} catch (error) {
  if (!(error instanceof ChorusApiError)) throw error;
  console.log(\`refused: \${error.status} \${error.code}\`);
}
`;

beforeAll(async () => {
  key = await cliApiKey(ADMIN.email, 'e2e-client-package', 'read');
  project = await mkdtemp(join(tmpdir(), 'chorus-client-app-'));
  await run('npm', ['run', '-s', 'build:package', '-w', '@chorus/client'], {
    cwd: root,
    env: cleanEnv(),
  });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], {
    cwd: join(root, 'packages/client/dist'),
    env: cleanEnv(),
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'chorus-client-app', private: true, type: 'module' }),
  );
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        outDir: 'out',
        skipLibCheck: false,
        types: ['node'],
      },
      include: ['main.ts'],
    }),
  );
  await writeFile(join(project, 'main.ts'), PROGRAM);
  // The tarball, and the compiler and Node's types this repository uses (so a warm npm cache
  // serves them); the client's own dependencies come from the registry as for any user.
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      `./${packed?.filename}`,
      `typescript@${await versionOf('typescript')}`,
      `@types/node@${await versionOf('@types/node')}`,
    ],
    { cwd: project, env: cleanEnv() },
  );
}, 600_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed @chorus/client', () => {
  it('installs with registry packages only: nothing of the repository, Next or the database', async () => {
    const installed = await readdir(join(project, 'node_modules'));
    expect(await readdir(join(project, 'node_modules/@chorus'))).toEqual(['client']);
    for (const name of ['next', 'drizzle-orm', '@electric-sql', 'postgres', 'zod', 'react']) {
      expect(installed).not.toContain(name);
    }
    const manifest = JSON.parse(
      await readFile(join(project, 'node_modules/@chorus/client/package.json'), 'utf8'),
    ) as { type: string; exports: Record<string, Record<string, string>>; dependencies: object };
    expect(manifest.type).toBe('module');
    expect(manifest.exports['.']).toMatchObject({ types: './index.d.ts', import: './index.js' });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@trpc/client', '@trpc/server']);
  });

  // Two compilations checking tRPC's declarations too (no skipLibCheck): slow on a loaded machine.
  it(
    'type-checks strict under NodeNext without skipLibCheck, and refuses a wrong input',
    {
      timeout: 400_000,
    },
    async () => {
      const tsc = join(project, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', project]);
      await writeFile(
        join(project, 'wrong.ts'),
        `import { createChorusClient } from '@chorus/client';\n` +
          `const chorus = createChorusClient({ url: 'http://localhost', token: 'x' });\n` +
          `export const wrong = () => chorus.posts.create.mutate({ title: 42 });\n`,
      );
      await writeFile(
        join(project, 'tsconfig.wrong.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          include: ['wrong.ts'],
          compilerOptions: { noEmit: true },
        }),
      );
      const failed = await run(process.execPath, [
        tsc,
        '-p',
        join(project, 'tsconfig.wrong.json'),
      ]).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      // Typed, not `any`: the router's types came along.
      expect(failed).toMatch(
        /wrong\.ts\(3,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
      );
    },
  );

  it('runs with plain Node, listing the users the REST API lists', async () => {
    const { stdout } = await run(process.execPath, [join(project, 'out/main.js')], {
      cwd: project,
      env: { ...cleanEnv(), CHORUS_URL: inject('base'), CHORUS_TOKEN: key },
    });
    const answer = await fetch(`${inject('base')}/api/users?limit=5`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const newest = (await answer.json()) as {
      data: { email: string; role: string }[];
      pagination: { total: number };
    };
    expect(stdout).toMatch(new RegExp(`^users: ${newest.pagination.total}$`, 'm'));
    for (const user of newest.data) expect(stdout).toContain(`- ${user.email} (${user.role})`);
    expect(stdout).toContain('refused: 404 resource_not_found');
  });
});
