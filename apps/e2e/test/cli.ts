import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';

/** An API key for `email`, made as an operator would: `npm run -s cli -- api-key create …`. */
export async function cliApiKey(email: string, name: string, scopes: string) {
  const { stdout } = await promisify(execFile)(
    'npm',
    [
      'run',
      '-s',
      'cli',
      '--',
      'api-key',
      'create',
      '--email',
      email,
      '--name',
      name,
      '--scopes',
      scopes,
    ],
    { cwd: inject('root'), env: inject('env') as unknown as NodeJS.ProcessEnv },
  );
  return stdout.trim();
}
