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
  const [row] = await database.db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.accountId, accountId),
        eq(integrationConnections.integrationId, 'dropbox'),
      ),
    );
  if (!row) throw new Error('no connection');
  return row;
}

const marks = (accountId: string) =>
  database.db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));

describe('markNeedsReconnect', () => {
  it('marks the connection as read, once', async () => {
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'marked',
      admin: { name: 'Ada', email: 'ada@marked.test', password: 'correct horse battery' },
    });
    const read = await connect(accountId, adminId, 'token-1', new Date());
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    const [row] = await database.db
      .select()
      .from(integrationConnections)
      .where(eq(integrationConnections.accountId, accountId));
    expect(row?.status).toBe('needs_reconnect');
    expect(await marks(accountId)).toHaveLength(1);
  });

  it('leaves alone a connection connected again since it was read', async () => {
    const { accountId, adminId } = await createAccount(database.db, {
      name: 'reconnected',
      admin: { name: 'Ada', email: 'ada@reconnected.test', password: 'correct horse battery' },
    });
    const read = await connect(accountId, adminId, 'token-1', new Date(Date.now() - 60_000));
    // The platform is refusing the old grant while the admin connects again.
    await connect(accountId, adminId, 'token-2', new Date());
    await database.db.transaction((tx) => markNeedsReconnect(tx, read));
    const [row] = await database.db
      .select()
      .from(integrationConnections)
      .where(eq(integrationConnections.accountId, accountId));
    expect(row?.status).toBe('connected');
    expect(await marks(accountId)).toEqual([]);
  });
});
