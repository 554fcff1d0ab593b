import { eq, users } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { testRateLimiter } from './rate-limiter';

/** `users.listInFull` (tRPC only): the users list with each user in full, for the dashboard. */
let h: Harness;
let handle: (req: Request) => Promise<Response>;
let other: Awaited<ReturnType<Harness['newAccount']>>;
let memberId: string;
let member: string;

beforeAll(async () => {
  h = await startHarness();
  handle = createTrpcHandler({
    getDatabase: async () => h.database,
    rateLimiter: testRateLimiter(),
  });
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  memberId = created.json.id;
  member = (await h.keyFor(memberId)).secret;
});
afterAll(() => h?.close());

async function listInFull(token: string, query: unknown = {}) {
  const input = encodeURIComponent(JSON.stringify(query));
  const res = await handle(
    new Request(`http://localhost/api/trpc/users.listInFull?input=${input}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      result: {
        data: {
          data: { id: string; lastLogin: unknown; settings: object }[];
          pagination: { total: number };
        };
      };
      error: { data: { error: { code: string } } };
    },
  };
}

describe('users.listInFull', () => {
  it('answers the account’s users in full, as the list orders them, leaving out other accounts’', async () => {
    const { status, body } = await listInFull(h.main.token);
    expect(status).toBe(200);
    const users = body.result.data.data;
    expect(users.map((u) => u.id)).toEqual([memberId, h.main.adminId]);
    expect(users.map((u) => u.id)).not.toContain(other.adminId);
    const list = await h.call('GET', '/api/users');
    expect(body.result.data.pagination).toEqual(list.json.pagination);
    expect(users.map(({ id }) => id)).toEqual(list.json.data.map((u: { id: string }) => u.id));
    expect(users[0]).toMatchObject({
      email: 'member@acme.test',
      lastLogin: null,
      settings: { notifications: expect.any(Boolean), twoFactorAuth: false },
    });
    const single = await h.call('GET', `/api/users/${memberId}`);
    expect(users[0]).toEqual(single.json);
  });

  it('answers each user as the single read does, a last sign-in and settings included', async () => {
    // Milliseconds as the API writes them, a zero last digit included.
    await h.db
      .update(users)
      .set({ lastLoginAt: new Date('2026-11-21T10:00:00.120Z'), notifications: false })
      .where(eq(users.id, h.main.adminId));
    const { body } = await listInFull(h.main.token);
    const admin = body.result.data.data.find((u) => u.id === h.main.adminId);
    expect(admin).toMatchObject({
      lastLogin: '2026-11-21T10:00:00.120Z',
      settings: { notifications: false },
    });
    for (const user of body.result.data.data) {
      expect(user).toEqual((await h.call('GET', `/api/users/${user.id}`)).json);
    }
  });

  it('is for admins with read, like the list', async () => {
    const byMember = await listInFull(member);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.data.error.code).toBe('forbidden');
    const writeOnly = (await h.keyFor(h.main.adminId, ['write'])).secret;
    const narrow = await listInFull(writeOnly);
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.data.error.code).toBe('insufficient_scope');
  });

  it('refuses more than 100 users a page, like the list', async () => {
    const { status, body } = await listInFull(h.main.token, { limit: 101 });
    expect(status).toBe(400);
    expect(body.error.data.error.code).toBe('validation_error');
  });
});
