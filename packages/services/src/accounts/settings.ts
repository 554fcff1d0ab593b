import type { Principal } from '@chorus/auth';
import { accounts, eq, type Db } from '@chorus/db';
import type { AccountSettings, UpdateAccountSettings } from '@chorus/validators';

const columns = { requireApproval: accounts.requireApproval, timeZone: accounts.timeZone };

/** The principal's account's settings (docs/settings-and-import-export.md). The account exists: it authenticated. */
export async function getAccountSettings(opts: {
  db: Db;
  principal: Principal;
}): Promise<AccountSettings> {
  const [row] = await opts.db
    .select(columns)
    .from(accounts)
    .where(eq(accounts.id, opts.principal.accountId));
  if (!row) throw new Error('the principal has no account');
  return row;
}

/**
 * A partial update of the settings: fields left out are kept. The time zone was checked
 * against the runtime's zones at the edge (the database cannot know them).
 */
export async function updateAccountSettings(opts: {
  db: Db;
  principal: Principal;
  input: UpdateAccountSettings;
}): Promise<AccountSettings> {
  const { db, principal, input } = opts;
  const changes = { requireApproval: input.requireApproval, timeZone: input.timeZone };
  if (changes.requireApproval === undefined && changes.timeZone === undefined) {
    return getAccountSettings({ db, principal });
  }
  const [row] = await db
    .update(accounts)
    .set(changes)
    .where(eq(accounts.id, principal.accountId))
    .returning(columns);
  if (!row) throw new Error('the principal has no account');
  return row;
}
