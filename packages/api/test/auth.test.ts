import { apiKeys, eq } from '@chorus/db';
import { revokeApiKey } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function expectUnauthorized(token: string | null, headers: Record<string, string> = {}) {
  const { status, json, headers: res } = await h.call('GET', '/api/users', { token, headers });
  expect(status).toBe(401);
  expect(json.error.code).toBe('unauthorized');
  expect(res.get('www-authenticate')).toMatch(/^Bearer/);
}

describe('API keys', () => {
  it('are csk_live_/csk_test_ followed by 32+ base62 characters, stored only as a hash', async () => {
    const { secret, apiKey } = await h.keyFor(h.main.adminId);
    expect(secret).toMatch(/^csk_test_[0-9A-Za-z]{32,}$/);
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a missing credential', () => expectUnauthorized(null));
  it('refuses a non-bearer scheme', () =>
    expectUnauthorized(null, { authorization: `Basic ${btoa('a:b')}` }));
  it('refuses a malformed token', () => expectUnauthorized('not-a-key'));
  it('refuses an unknown key of the right shape', () =>
    expectUnauthorized(`csk_live_${'A'.repeat(40)}`));

  it('refuses an expired key', async () => {
    const { secret, apiKey } = await h.keyFor(
      h.main.adminId,
      ['read'],
      new Date(Date.now() + 60_000),
    );
    expect((await h.call('GET', '/api/users', { token: secret })).status).toBe(200);
    await h.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, apiKey.id));
    await expectUnauthorized(secret);
  });

  it('refuses a revoked key on its next request', async () => {
    const { secret, apiKey } = await h.keyFor(h.main.adminId, ['read']);
    expect((await h.call('GET', '/api/users', { token: secret })).status).toBe(200);
    await revokeApiKey(h.db, apiKey.id);
    await expectUnauthorized(secret);
  });

  it('records lastUsedAt', async () => {
    const { secret, apiKey } = await h.keyFor(h.main.adminId, ['read']);
    await h.call('GET', '/api/users', { token: secret });
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('is checked before routing: an unknown path without credentials is 401, not 404', async () => {
    const { status } = await h.call('GET', '/api/does-not-exist', { token: null });
    expect(status).toBe(401);
  });
});

describe('scopes and roles', () => {
  it('answers 403 insufficient_scope naming the required scopes', async () => {
    const { secret } = await h.keyFor(h.main.adminId, ['content:read']);
    const { status, json } = await h.call('GET', '/api/users', { token: secret });
    expect(status).toBe(403);
    expect(json.error.code).toBe('insufficient_scope');
    expect(json.error.details).toEqual({ requiredScopes: ['read'] });
  });

  it('does not let write imply read', async () => {
    const { secret } = await h.keyFor(h.main.adminId, ['write']);
    const read = await h.call('GET', `/api/users/${h.main.adminId}`, { token: secret });
    expect(read.json.error.code).toBe('insufficient_scope');
    const write = await h.call('POST', '/api/users', {
      token: secret,
      body: { name: 'W', email: 'w@acme.test', password: 'password-w' },
    });
    expect(write.status).toBe(201);
  });

  it('checks the role of the key’s user as it is now, not as it was when the key was made', async () => {
    const created = await h.call('POST', '/api/users', {
      body: {
        name: 'Temp Admin',
        email: 'temp-admin@acme.test',
        password: 'password-t',
        role: 'admin',
      },
    });
    const { secret } = await h.keyFor(created.json.id, ['read', 'write']);
    expect((await h.call('GET', '/api/users', { token: secret })).status).toBe(200);
    await h.call('PUT', `/api/users/${created.json.id}`, { body: { role: 'user' } });
    const after = await h.call('GET', '/api/users', { token: secret });
    expect(after.status).toBe(403);
    expect(after.json.error.code).toBe('forbidden');
  });
});
