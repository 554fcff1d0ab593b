import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, sql } from '../src';
import { migrateDatabase, openConfiguredDatabase, startEmbeddedServer } from '../src/node';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'chorus-db-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const env = () => ({ CHORUS_DATA_DIR: dataDir });

describe('the embedded database', () => {
  it('is shared over loopback while a server holds it, and opened in-process otherwise', async () => {
    const server = await startEmbeddedServer(dataDir);
    expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);

    const client = await openConfiguredDatabase(env());
    expect(client.driver).toBe('postgres');
    await migrateDatabase(client);
    await migrateDatabase(client); // applying twice is a no-op
    await client.db.insert(accounts).values({ id: 'acc_shared', name: 'Shared' });
    await client.close();

    await expect(startEmbeddedServer(dataDir)).rejects.toThrow(
      /Another Chorus server \(pid \d+\) is using the data directory/,
    );
    await server.stop();

    const direct = await openConfiguredDatabase(env());
    expect(direct.driver).toBe('pglite');
    expect(await direct.db.select().from(accounts)).toEqual([
      expect.objectContaining({ id: 'acc_shared', name: 'Shared', tier: 'free' }),
    ]);
    await direct.close();
  });

  it('serves a transaction from one client without letting another interleave', async () => {
    const server = await startEmbeddedServer(dataDir);
    const [a, b] = [await openConfiguredDatabase(env()), await openConfiguredDatabase(env())];
    try {
      await a.db.transaction(async (tx) => {
        await tx.insert(accounts).values({ id: 'acc_tx', name: 'Tx' });
        await tx.execute(sql`select 1`);
      });
      const rows = await b.db.select().from(accounts);
      expect(rows.map((r) => r.id)).toContain('acc_tx');
    } finally {
      await a.close();
      await b.close();
      await server.stop();
    }
  });
});

describe('openConfiguredDatabase', () => {
  it('uses DATABASE_URL when set', async () => {
    const db = await openConfiguredDatabase({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
    });
    expect(db.driver).toBe('postgres');
    expect(db.url).toBe('postgres://postgres@127.0.0.1:1/x');
    await db.close();
  });
});
