import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * Writes `program` as `program.ts` into `dir` (beside a generated client) and type-checks it
 * with the repository's strict settings, as an integrator's project would: answers tsc's
 * complaints, or '' when it compiles.
 */
export async function compileProgram(dir: string, program: string): Promise<string> {
  await writeFile(`${dir}program.ts`, program);
  await writeFile(
    `${dir}tsconfig.json`,
    JSON.stringify({
      extends: '@chorus/tsconfig/base.json',
      compilerOptions: { incremental: false },
      files: ['program.ts'],
    }),
  );
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', `${dir}tsconfig.json`]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout) || String(error);
  }
}
