import { eq, events, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, recordEvent } from '../src';

describe('recordEvent (the outbox)', () => {
  let database: Database;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ accountId } = await createAccount(database.db, {
      name: 'Outbox',
      admin: { name: 'Ada', email: 'ada@outbox.test', password: 'correct horse battery' },
    }));
  });
  afterAll(() => database?.close());

  it('writes the payload of docs/webhooks.md with the change that commits', async () => {
    const object = { id: 'post_1', title: 'Hello' };
    const payload = await database.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object }),
    );
    expect(payload).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      type: 'post.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { object },
    });
    const [row] = await database.db.select().from(events).where(eq(events.id, payload.id));
    expect(row?.payload).toEqual(payload);
    expect(row?.accountId).toBe(accountId);
  });

  it('leaves nothing behind when the change rolls back', async () => {
    let id = '';
    await expect(
      database.db.transaction(async (tx) => {
        ({ id } = await recordEvent({ tx, accountId, type: 'post.deleted', object: {} }));
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(id).not.toBe('');
    expect(await database.db.select().from(events).where(eq(events.id, id))).toEqual([]);
  });
});
