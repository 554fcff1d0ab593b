import type { Db } from '@chorus/db';
import { createAccount } from '../src';
import { adminOf } from './oauth-fixtures';

let n = 0;

/** A new account whose admin signs in with `password`, under a fresh email. */
export async function newLoginUser(db: Db, password: string) {
  n += 1;
  const email = `login-${n}@example.test`;
  const { accountId, adminId } = await createAccount(db, {
    name: `Login ${n}`,
    admin: { email, password },
  });
  return { email, principal: adminOf(accountId, adminId) };
}
