import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { testRateLimiter } from './rate-limiter';

/** `users.details` (tRPC only): several users in full, for the dashboard's users page. */
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

async function details(token: string, userIds: unknown) {
  const input = encodeURIComponent(JSON.stringify({ userIds }));
  const res = await handle(
    new Request(`http://localhost/api/trpc/users.details?input=${input}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      result: { data: { id: string; lastLogin: unknown; settings: object }[] };
      error: { data: { error: { code: string } } };
    },
  };
}

describe('users.details', () => {
  it('answers the account’s users in full, in the order asked, leaving out other accounts’', async () => {
    const { status, body } = await details(h.main.token, [memberId, other.adminId, h.main.adminId]);
    expect(status).toBe(200);
    const users = body.result.data;
    expect(users.map((u) => u.id)).toEqual([memberId, h.main.adminId]);
    expect(users[0]).toMatchObject({
      email: 'member@acme.test',
      lastLogin: null,
      settings: { notifications: expect.any(Boolean), twoFactorAuth: false },
    });
    const single = await h.call('GET', `/api/users/${memberId}`);
    expect(users[0]).toEqual(single.json);
  });

  it('is for admins with read, like the list', async () => {
    const byMember = await details(member, [memberId]);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.data.error.code).toBe('forbidden');
    const writeOnly = (await h.keyFor(h.main.adminId, ['write'])).secret;
    const narrow = await details(writeOnly, [memberId]);
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.data.error.code).toBe('insufficient_scope');
  });

  it('refuses more than 100 ids', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `usr_${i}`);
    const { status, body } = await details(h.main.token, many);
    expect(status).toBe(400);
    expect(body.error.data.error.code).toBe('validation_error');
  });
});
