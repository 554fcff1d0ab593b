import { eq, users } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Grace Hopper',
  email,
  password: 'a-long-password',
  ...extra,
});

async function createUser(email: string, extra: Record<string, unknown> = {}) {
  const { status, json } = await h.call('POST', '/api/users', { body: newUser(email, extra) });
  expect(status).toBe(201);
  return json as { id: string; email: string; role: string };
}

/** A user of the main account with a key of their own. */
async function memberWithKey(email: string, role: 'user' | 'admin' = 'user') {
  const user = await createUser(email, { role });
  const { secret } = await h.keyFor(user.id);
  return { ...user, token: secret };
}

describe('POST /api/users', () => {
  it('answers 201 with exactly id, name, email, role, createdAt and defaults role to user', async () => {
    const { status, json } = await h.call('POST', '/api/users', {
      body: newUser('grace@acme.test'),
    });
    expect(status).toBe(201);
    expect(Object.keys(json).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role']);
    expect(json).toMatchObject({ name: 'Grace Hopper', email: 'grace@acme.test', role: 'user' });
    expect(json.id).toMatch(/^usr_[0-9A-Z]{26}$/);
    expect(json.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('never returns the password, and stores only an argon2id hash', async () => {
    const { json } = await h.call('POST', '/api/users', { body: newUser('hash@acme.test') });
    expect(JSON.stringify(json)).not.toContain('a-long-password');
    const [row] = await h.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, json.id));
    const hash = row?.hash;
    expect(hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a password under 8 characters, a bad email and a missing name with validation_error', async () => {
    const { status, json } = await h.call('POST', '/api/users', {
      body: { email: 'not-an-email', password: 'short' },
    });
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    const paths = json.error.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['email', 'name', 'password']);
  });

  it('refuses an unknown role', async () => {
    const { status, json } = await h.call('POST', '/api/users', {
      body: newUser('role@acme.test', { role: 'owner' }),
    });
    expect(status).toBe(400);
    expect(json.error.details.issues[0].path).toBe('role');
  });

  it('answers email_already_exists for an email in use, whatever its case and account', async () => {
    await createUser('Dup@Acme.test');
    const same = await h.call('POST', '/api/users', { body: newUser('dup@acme.TEST') });
    expect(same.status).toBe(400);
    expect(same.json.error.code).toBe('email_already_exists');
    const other = await h.newAccount('Globex', 'admin@globex.test');
    const across = await h.call('POST', '/api/users', {
      token: other.token,
      body: newUser('DUP@acme.test'),
    });
    expect(across.json.error.code).toBe('email_already_exists');
  });

  it('ignores service-owned fields such as id and createdAt in the body', async () => {
    const { json } = await h.call('POST', '/api/users', {
      body: newUser('owned@acme.test', { id: 'usr_chosen', createdAt: '2000-01-01T00:00:00.000Z' }),
    });
    expect(json.id).not.toBe('usr_chosen');
    expect(json.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('is refused to non-admins with 403 forbidden', async () => {
    const member = await memberWithKey('member-create@acme.test');
    const { status, json } = await h.call('POST', '/api/users', {
      token: member.token,
      body: newUser('x@acme.test'),
    });
    expect(status).toBe(403);
    expect(json.error.code).toBe('forbidden');
  });
});

describe('GET /api/users', () => {
  let fresh: Harness;
  beforeAll(async () => {
    fresh = await startHarness();
    for (let i = 0; i < 5; i++) {
      await fresh.call('POST', '/api/users', { body: newUser(`p${i}@list.test`) });
    }
  });
  afterAll(() => fresh.close());

  it('answers { data, pagination } with default limit 50, newest first', async () => {
    const { status, json } = await fresh.call('GET', '/api/users');
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['data', 'pagination']);
    expect(json.pagination).toEqual({ total: 6, page: 1, limit: 50, pages: 1 });
    expect(json.data.map((u: { email: string }) => u.email).slice(0, 2)).toEqual([
      'p4@list.test',
      'p3@list.test',
    ]);
    expect(Object.keys(json.data[0]).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role']);
  });

  it('lists each user exactly as GET /api/users/{id} shows them, timestamps in the same form', async () => {
    const { json } = await fresh.call('GET', '/api/users');
    for (const listed of json.data as { id: string; createdAt: string }[]) {
      const one = await fresh.call('GET', `/api/users/${listed.id}`);
      const { id, name, email, role, createdAt } = one.json;
      expect(listed).toEqual({ id, name, email, role, createdAt });
      expect(listed.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('pages with page and limit, and a page past the end is empty with correct numbers', async () => {
    const second = await fresh.call('GET', '/api/users?page=2&limit=4');
    expect(second.json.pagination).toEqual({ total: 6, page: 2, limit: 4, pages: 2 });
    expect(second.json.data).toHaveLength(2);
    const past = await fresh.call('GET', '/api/users?page=9&limit=4');
    expect(past.json).toEqual({ data: [], pagination: { total: 6, page: 9, limit: 4, pages: 2 } });
  });

  it.each([
    ['page=0'],
    ['limit=0'],
    ['limit=101'],
    ['page=1.5'],
    // An integer written with a fraction, even a zero one: digits only.
    ['page=1.0'],
    ['limit=2.00'],
    ['limit=abc'],
    ['role=owner'],
    // Other spellings Number() reads: none is how a query writes an integer.
    ['limit=0x10'],
    ['page=1e3'],
    ['limit=%202'],
    ['limit=+5'],
    ['page=Infinity'],
  ])('refuses %s with 400 validation_error, never clamping', async (query) => {
    const { status, json } = await fresh.call('GET', `/api/users?${query}`);
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.details.issues[0].path).toBe(query.split('=')[0]);
  });

  it('accepts limit=100', async () => {
    expect((await fresh.call('GET', '/api/users?limit=100')).status).toBe(200);
  });

  it('filters by role', async () => {
    const { json } = await fresh.call('GET', '/api/users?role=admin');
    expect(json.pagination.total).toBe(1);
    expect(json.data[0].role).toBe('admin');
  });

  it('searches name and email with q, any case, combined with role; % and _ match themselves', async () => {
    const byEmail = await fresh.call('GET', '/api/users?q=P3%40LIST');
    expect(byEmail.json.data.map((u: { email: string }) => u.email)).toEqual(['p3@list.test']);
    const byName = await fresh.call('GET', '/api/users?q=acme%20adm');
    expect(byName.json.pagination.total).toBe(1);
    expect(byName.json.data[0].role).toBe('admin');
    const withRole = await fresh.call('GET', '/api/users?q=list.test&role=admin');
    expect(withRole.json.pagination.total).toBe(0);
    expect((await fresh.call('GET', '/api/users?q=%25')).json.pagination.total).toBe(0);
    expect((await fresh.call('GET', '/api/users?q=p_%40')).json.pagination.total).toBe(0);
    expect((await fresh.call('GET', '/api/users?q=')).json.pagination.total).toBe(6);
    const tooLong = await fresh.call('GET', `/api/users?q=${'x'.repeat(201)}`);
    expect(tooLong.json.error.code).toBe('validation_error');
  });

  it('documents q in the OpenAPI document', async () => {
    const { json } = await fresh.call('GET', '/api/openapi.json', { token: null });
    const params = json.paths['/api/users'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['page', 'limit', 'role', 'q']));
  });

  it('shows only the caller’s account', async () => {
    const other = await fresh.newAccount('Initech', 'admin@initech.test');
    const { json } = await fresh.call('GET', '/api/users', { token: other.token });
    expect(json.data.map((u: { email: string }) => u.email)).toEqual(['admin@initech.test']);
  });

  it('is refused to non-admins with 403 forbidden', async () => {
    const user = await h.call('POST', '/api/users', { body: newUser('lister@acme.test') });
    const { secret } = await h.keyFor(user.json.id);
    const { status, json } = await h.call('GET', '/api/users', { token: secret });
    expect(status).toBe(403);
    expect(json.error.code).toBe('forbidden');
  });
});

describe('GET /api/users/{userId}', () => {
  it('answers the bare user with lastLogin (null before a first login) and settings', async () => {
    const user = await createUser('single@acme.test');
    const { status, json } = await h.call('GET', `/api/users/${user.id}`);
    expect(status).toBe(200);
    expect(json).toEqual({
      id: user.id,
      name: 'Grace Hopper',
      email: 'single@acme.test',
      role: 'user',
      createdAt: expect.any(String),
      lastLogin: null,
      settings: { notifications: true, twoFactorAuth: false },
    });
  });

  it('is open to non-admins of the same account (team directory)', async () => {
    const member = await memberWithKey('directory@acme.test');
    const { status } = await h.call('GET', `/api/users/${h.main.adminId}`, { token: member.token });
    expect(status).toBe(200);
  });

  it.each([['usr_00000000000000000000000000'], ['not-an-id'], ['%27%3B%20drop%20table%20users']])(
    'answers 404 resource_not_found for %s',
    async (id) => {
      const { status, json } = await h.call('GET', `/api/users/${id}`);
      expect(status).toBe(404);
      expect(json.error.code).toBe('resource_not_found');
    },
  );

  it('answers 404 for a user of another account, as if it did not exist', async () => {
    const other = await h.newAccount('Umbrella', 'admin@umbrella.test');
    const { status, json } = await h.call('GET', `/api/users/${other.adminId}`);
    expect(status).toBe(404);
    expect(json.error.code).toBe('resource_not_found');
  });
});

describe('PUT /api/users/{id}', () => {
  it('is a partial update: fields left out are kept', async () => {
    const user = await createUser('partial@acme.test');
    const { status, json } = await h.call('PUT', `/api/users/${user.id}`, {
      body: { name: 'Renamed' },
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: user.id,
      name: 'Renamed',
      email: 'partial@acme.test',
      role: 'user',
    });
    expect(json.settings).toEqual({ notifications: true, twoFactorAuth: false });
  });

  it('updates settings.notifications and lets an admin change roles', async () => {
    const user = await createUser('promote@acme.test');
    const { json } = await h.call('PUT', `/api/users/${user.id}`, {
      body: { role: 'admin', settings: { notifications: false } },
    });
    expect(json.role).toBe('admin');
    expect(json.settings.notifications).toBe(false);
  });

  it('refuses turning twoFactorAuth on over a bearer token but allows leaving it off', async () => {
    const user = await createUser('twofa@acme.test');
    const on = await h.call('PUT', `/api/users/${user.id}`, {
      body: { settings: { twoFactorAuth: true } },
    });
    expect(on.status).toBe(403);
    expect(on.json.error.code).toBe('forbidden');
    const off = await h.call('PUT', `/api/users/${user.id}`, {
      body: { settings: { twoFactorAuth: false } },
    });
    expect(off.status).toBe(200);
  });

  it('lets a user update themself, but not their role', async () => {
    const member = await memberWithKey('self@acme.test');
    const self = await h.call('PUT', `/api/users/${member.id}`, {
      token: member.token,
      body: { name: 'Me' },
    });
    expect(self.status).toBe(200);
    expect(self.json.name).toBe('Me');
    const role = await h.call('PUT', `/api/users/${member.id}`, {
      token: member.token,
      body: { role: 'admin' },
    });
    expect(role.status).toBe(403);
    expect(role.json.error.code).toBe('forbidden');
    const after = await h.call('GET', `/api/users/${member.id}`);
    expect(after.json.role).toBe('user');
  });

  it('refuses a user updating someone else with 403', async () => {
    const member = await memberWithKey('meddler@acme.test');
    const { status } = await h.call('PUT', `/api/users/${h.main.adminId}`, {
      token: member.token,
      body: { name: 'X' },
    });
    expect(status).toBe(403);
  });

  it('answers email_already_exists when the new email is taken (any case)', async () => {
    await createUser('taken@acme.test');
    const user = await createUser('mover@acme.test');
    const { status, json } = await h.call('PUT', `/api/users/${user.id}`, {
      body: { email: 'TAKEN@acme.test' },
    });
    expect(status).toBe(400);
    expect(json.error.code).toBe('email_already_exists');
  });

  it('ignores an id in the body: the path decides', async () => {
    const user = await createUser('pathwins@acme.test');
    const { json } = await h.call('PUT', `/api/users/${user.id}`, {
      body: { id: h.main.adminId, name: 'Path' },
    });
    expect(json.id).toBe(user.id);
    expect((await h.call('GET', `/api/users/${h.main.adminId}`)).json.name).not.toBe('Path');
  });

  it('answers 404 for users of other accounts and unknown ids', async () => {
    const other = await h.newAccount('Hooli', 'admin@hooli.test');
    expect(
      (await h.call('PUT', `/api/users/${other.adminId}`, { body: { name: 'X' } })).status,
    ).toBe(404);
    expect((await h.call('PUT', '/api/users/usr_nope', { body: { name: 'X' } })).status).toBe(404);
  });

  it('refuses demoting the last admin with 409 last_admin', async () => {
    const other = await h.newAccount('Solo', 'admin@solo.test');
    const { status, json } = await h.call('PUT', `/api/users/${other.adminId}`, {
      token: other.token,
      body: { role: 'user' },
    });
    expect(status).toBe(409);
    expect(json.error.code).toBe('last_admin');
  });
});

describe('DELETE /api/users/{userId}', () => {
  it('answers 204 with no body, and the user is gone', async () => {
    const user = await createUser('gone@acme.test');
    const { status, res, json } = await h.call('DELETE', `/api/users/${user.id}`);
    expect(status).toBe(204);
    expect(json).toBeUndefined();
    expect(res.headers.get('content-type')).toBeNull();
    expect((await h.call('GET', `/api/users/${user.id}`)).status).toBe(404);
  });

  it('revokes the deleted user’s API keys with them', async () => {
    const member = await memberWithKey('keyholder@acme.test');
    await h.call('DELETE', `/api/users/${member.id}`);
    expect(
      (await h.call('GET', `/api/users/${h.main.adminId}`, { token: member.token })).status,
    ).toBe(401);
  });

  it('answers 404 for unknown ids and users of other accounts', async () => {
    const other = await h.newAccount('Stark', 'admin@stark.test');
    expect((await h.call('DELETE', `/api/users/${other.adminId}`)).status).toBe(404);
    expect((await h.call('DELETE', '/api/users/usr_nope')).status).toBe(404);
    expect(
      (await h.call('GET', `/api/users/${other.adminId}`, { token: other.token })).status,
    ).toBe(200);
  });

  it('refuses deleting the last admin with 409 last_admin, and allows it when another admin exists', async () => {
    const solo = await h.newAccount('Wayne', 'admin@wayne.test');
    const last = await h.call('DELETE', `/api/users/${solo.adminId}`, { token: solo.token });
    expect(last.status).toBe(409);
    expect(last.json.error.code).toBe('last_admin');
    const second = await h.call('POST', '/api/users', {
      token: solo.token,
      body: newUser('alfred@wayne.test', { role: 'admin' }),
    });
    expect(
      (await h.call('DELETE', `/api/users/${second.json.id}`, { token: solo.token })).status,
    ).toBe(204);
  });

  it('is refused to non-admins with 403 forbidden', async () => {
    const member = await memberWithKey('deleter@acme.test');
    const target = await createUser('target@acme.test');
    const { status, json } = await h.call('DELETE', `/api/users/${target.id}`, {
      token: member.token,
    });
    expect(status).toBe(403);
    expect(json.error.code).toBe('forbidden');
  });
});
