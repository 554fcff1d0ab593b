import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';

/**
 * An API key for `email`, made as an operator would: `npm run -s cli -- api-key create …`,
 * with the settings of the suite's server unless `env` names another deployment.
 */
export async function cliApiKey(
  email: string,
  name: string,
  scopes: string,
  env: Record<string, string> = inject('env'),
) {
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
    { cwd: inject('root'), env: env as unknown as NodeJS.ProcessEnv },
  );
  return stdout.trim();
}
