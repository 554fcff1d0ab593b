import type { Principal } from '@chorus/auth';
import { apiKeys, eq } from '@chorus/db';
import { createUser } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory, toApiError } from '../src';
import { startHarness, type Harness } from './harness';

let h: Harness;
let memberId: string;
const createCaller = createCallerFactory(appRouter);

beforeAll(async () => {
  h = await startHarness();
  const member = await createUser({
    db: h.db,
    principal: session(),
    input: { name: 'Member', email: 'member@acme.test', password: 'member-password', role: 'user' },
  });
  memberId = member.id;
});
afterAll(() => h.close());

const session = (overrides: Partial<Principal> = {}) => h.session(overrides);

const caller = (principal: Principal | null) =>
  createCaller({
    db: h.db,
    principal,
    requestId: 'req_test',
    origin: 'http://localhost',
    response: {},
  });

const code = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error === undefined ? undefined : toApiError(error).code;
};

describe('dashboard procedures', () => {
  it('create, list and revoke API keys; the secret comes back once', async () => {
    const me = caller(session());
    const { apiKey, secret } = await me.apiKeys.create({
      name: 'deploy',
      scopes: ['read'],
      environment: 'test',
    });
    expect(secret).toMatch(/^csk_test_/);
    const listed = await me.apiKeys.list();
    expect(listed.find((k) => k.id === apiKey.id)).toMatchObject({ lastFour: secret.slice(-4) });
    expect(JSON.stringify(listed)).not.toContain(secret);
    await me.apiKeys.revoke({ keyId: apiKey.id });
    expect((await h.call('GET', '/api/users', { token: secret })).status).toBe(401);
  });

  it('show a user only their own keys', async () => {
    const member = caller(session({ userId: memberId, role: 'user' }));
    const adminKey = await caller(session()).apiKeys.create({
      name: 'admin-only',
      scopes: ['read'],
      environment: 'live',
    });
    expect((await member.apiKeys.list()).map((k) => k.id)).not.toContain(adminKey.apiKey.id);
    expect(await code(member.apiKeys.revoke({ keyId: adminKey.apiKey.id }))).toBe(
      'resource_not_found',
    );
  });

  it("list each key's owner and state: an admin tells whose key is whose, and which expired", async () => {
    const member = caller(session({ userId: memberId, role: 'user' }));
    const soon = new Date(Date.now() + 60_000).toISOString();
    const mine = await member.apiKeys.create({
      name: 'member-key',
      scopes: ['read'],
      environment: 'live',
      expiresAt: soon,
    });
    const revoked = await member.apiKeys.create({
      name: 'member-gone',
      scopes: ['read'],
      environment: 'live',
    });
    await member.apiKeys.revoke({ keyId: revoked.apiKey.id });
    // Its expiry passes (as time would).
    await h.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, mine.apiKey.id));
    const adminKey = await caller(session()).apiKeys.create({
      name: 'admin-live',
      scopes: ['read'],
      environment: 'live',
    });
    const listed = await caller(session()).apiKeys.list();
    const byId = new Map(listed.map((key) => [key.id, key]));
    expect(byId.get(mine.apiKey.id)).toMatchObject({
      state: 'expired',
      owner: { id: memberId, name: 'Member', email: 'member@acme.test' },
    });
    expect(byId.get(revoked.apiKey.id)?.state).toBe('revoked');
    expect(byId.get(adminKey.apiKey.id)).toMatchObject({
      state: 'active',
      owner: { id: h.main.adminId },
    });
  });

  it('refuse bearer credentials: a token cannot mint keys or register clients', async () => {
    const viaKey = caller(session({ credential: { kind: 'api_key', id: 'key_x' } }));
    expect(
      await code(viaKey.apiKeys.create({ name: 'x', scopes: ['read'], environment: 'live' })),
    ).toBe('forbidden');
    const viaOAuth = caller(session({ credential: { kind: 'oauth', id: 'tok', clientId: 'app' } }));
    expect(await code(viaOAuth.oauthClients.list())).toBe('forbidden');
    expect(await code(caller(null).twoFactor.status())).toBe('unauthorized');
  });

  it('let admins, and only admins, manage OAuth applications', async () => {
    const me = caller(session());
    const created = await me.oauthClients.create({
      name: 'Partner',
      redirectUris: ['https://partner.example/cb'],
      scopes: ['read', 'content:read'],
      confidential: true,
    });
    expect(created.clientSecret).toMatch(/^cso_cs_/);
    const rotated = await me.oauthClients.rotateSecret({ clientId: created.client.id });
    expect(rotated.clientSecret).not.toBe(created.clientSecret);
    const member = caller(session({ userId: memberId, role: 'user' }));
    expect(await code(member.oauthClients.list())).toBe('forbidden');
    await me.oauthClients.delete({ clientId: created.client.id });
    expect(await me.oauthClients.list()).toEqual([]);
  });

  it('refuse redirect URIs that are not https (or http on loopback)', async () => {
    const me = caller(session());
    for (const uri of [
      'http://evil.example/cb',
      'https://a.example/cb#frag',
      'javascript:alert(1)',
    ]) {
      expect(
        await code(
          me.oauthClients.create({
            name: 'Bad',
            redirectUris: [uri],
            scopes: ['read'],
            confidential: false,
          }),
        ),
      ).toBe('validation_error');
    }
    const local = await me.oauthClients.create({
      name: 'Local',
      redirectUris: ['http://127.0.0.1:9999/cb'],
      scopes: ['read'],
      confidential: false,
    });
    expect(local.clientSecret).toBeNull();
  });
});
