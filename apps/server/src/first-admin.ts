import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '@chorus/db';
import { bootstrapFirstAdmin } from '@chorus/services';
import { readSetting } from '@chorus/settings';

/**
 * On a first start (no account yet), creates the first admin: with ADMIN_PASSWORD, or with a
 * generated password written once to `<dataDir>/initial-admin-password`, readable by its
 * owner only. Never on stdout, where log collectors would keep it. Returns what to tell.
 */
export async function createFirstAdmin(opts: {
  db: Db;
  dataDir: string;
  env?: Record<string, string | undefined>;
}): Promise<string[]> {
  const env = opts.env ?? process.env;
  const email = readSetting('ADMIN_EMAIL', env);
  const given = readSetting('ADMIN_PASSWORD', env);
  const password = given ?? randomBytes(18).toString('base64url');
  const created = await bootstrapFirstAdmin(opts.db, { email, password });
  if (!created) return [];
  if (given !== undefined) {
    return [`First start: created the admin ${email} with the password from ADMIN_PASSWORD.`];
  }
  const file = join(opts.dataDir, 'initial-admin-password');
  await mkdir(opts.dataDir, { recursive: true });
  // Created afresh, so the mode holds even where an older file stood.
  await rm(file, { force: true });
  await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  return [
    `First start: created the admin ${email}; the password is in ${file} (readable by you only).`,
    'Sign in, change the password, then delete that file.',
  ];
}
