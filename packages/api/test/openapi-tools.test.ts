/**
 * The served OpenAPI document as real tools take it: Redocly CLI's recommended rules pass clean
 * (config in redocly.yaml, the two by-design exceptions in .redocly.lint-ignore.yaml), and
 * openapi-typescript generates types that an openapi-fetch program compiles against with tsc.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProgram } from './compile-program';
import { startHarness, type Harness } from './harness';

const run = promisify(execFile);
const api = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const cache = `${api}.cache/`;
// No telemetry or update check: CI runs offline from the registry install.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const { status, json } = await h.call('GET', '/api/openapi.json', {
    token: null,
    origin: 'https://chorus.acme.test',
  });
  expect(status).toBe(200);
  await mkdir(`${cache}openapi-client`, { recursive: true });
  await writeFile(`${cache}openapi.json`, JSON.stringify(json));
});
afterAll(() => h.close());

const compile = (program: string) => compileProgram(`${cache}openapi-client/`, program);

const program = (listCall: string) => `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const chorus = createClient<paths>({ baseUrl: 'https://chorus.acme.test' });
const { data, error } = await ${listCall};
const emails: string[] | undefined = data?.data.map((user) => user.email);
const code: string | undefined = error?.error.code;
// A JSON body, typed from the document (no cast), and the created post's id.
const created = await chorus.POST('/api/content/posts', {
  body: { title: 'Hello', content: 'From a generated client' },
});
const postId: string | undefined = created.data?.data.id;
export { emails, code, postId };
`;

describe('the served OpenAPI document in real tools', () => {
  it('passes redocly lint (recommended rules) with no error or warning', async () => {
    const { stdout } = await run(
      bin('redocly'),
      ['lint', '.cache/openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      { cwd: api, env },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const { totals } = JSON.parse(stdout) as { totals: Record<string, number> };
    expect(totals).toEqual({ errors: 0, warnings: 0, ignored: 2 });
  }, 120_000);

  it('generates an openapi-fetch client whose calls type-check against the API', async () => {
    await run(bin('openapi-typescript'), [
      `${cache}openapi.json`,
      '-o',
      `${cache}openapi-client/schema.d.ts`,
    ]);
    expect(
      await compile(program(`chorus.GET('/api/users', { params: { query: { role: 'admin' } } })`)),
    ).toBe('');
    // A role that does not exist is a compile error: the types are the API's, not `any`.
    expect(
      await compile(program(`chorus.GET('/api/users', { params: { query: { role: 'owner' } } })`)),
    ).toMatch(/program\.ts\(6,\d+\): error TS2322: Type '"owner"' is not assignable/);
    // Error codes are the operation's: comparing with one it never answers does not compile
    // (\`last_admin\` is a code of the API, but never of this list).
    expect(
      await compile(
        program(`chorus.GET('/api/users')`).replace(
          'export {',
          "if (error?.error.code === 'last_admin') throw error;\nexport {",
        ),
      ),
    ).toMatch(/error TS2367/);
  }, 180_000);
});
