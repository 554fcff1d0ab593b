import { and, eq, events, integrationConnections, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts';
import { storeConnection } from '../src/integrations/connections';
import { markNeedsReconnect } from '../src/publishing/engine/claim';

/**
 * A platform's refusal marks the connection it was about: the publishing engine and the token
 * job read the connection, call the platform, then mark it. An admin who connects again in
 * between gave a new grant, which that refusal says nothing about.
 */

let database: Database;
beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A new account: its one connection is the Dropbox one `connect` stores. */
const account = (name: string) =>
  createAccount(database.db, {
    name,
    admin: { name: 'Ada', email: `ada@${name}.test`, password: 'correct horse battery' },
  });

async function connectionOf(accountId: string) {
  const [row] = await database.db
    .select()
    .from(integrationConnections)
    .where(eq(integrationConnections.accountId, accountId));
  if (!row) throw new Error('no connection');
  return row;
}

async function connect(accountId: string, userId: string, token: string, now: Date) {
  await storeConnection({
    db: database.db,
    accountId,
    userId,
    integrationId: 'dropbox',
    credentials: { kind: 'oauth2', accessToken: token, expiresIn: 3600 },
    scopes: [],
    meta: { accountName: 'Dropbox', pages: [] },
    now,
  });
  return connectionOf(accountId);
}

const marks = (accountId: string) =>
  database.db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));

describe('markNeedsReconnect', () => {
  it('marks the connection as read, once', async () => {
    const { accountId, adminId } = await account('marked');
    const read = await connect(accountId, adminId, 'token-1', new Date());
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    expect((await connectionOf(accountId)).status).toBe('needs_reconnect');
    expect(await marks(accountId)).toHaveLength(1);
  });

  it('leaves alone a connection connected again since it was read', async () => {
    const { accountId, adminId } = await account('reconnected');
    const read = await connect(accountId, adminId, 'token-1', new Date(Date.now() - 60_000));
    // The platform is refusing the old grant while the admin connects again.
    await connect(accountId, adminId, 'token-2', new Date());
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    expect((await connectionOf(accountId)).status).toBe('connected');
    expect(await marks(accountId)).toEqual([]);
  });
});
