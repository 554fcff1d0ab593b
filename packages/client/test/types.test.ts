/**
 * The types at work: a call with a wrong input does not compile, the right one does. Runs the
 * real `tsc` over the files in `type-fixtures/`, as an internal app's build would.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../type-fixtures/', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

async function compile(name: 'right' | 'wrong') {
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], { cwd: dir });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

describe('typed client', () => {
  it('compiles a call whose input matches the procedure', async () => {
    expect(await compile('right')).toEqual({ ok: true, output: '' });
  }, 120_000);

  it('refuses to compile a call with a wrong input', async () => {
    const { ok, output } = await compile('wrong');
    expect(ok).toBe(false);
    expect(output).toMatch(
      /wrong\.ts\(5,\d+\): error TS2322: Type '"superuser"' is not assignable/,
    );
  }, 120_000);
});
