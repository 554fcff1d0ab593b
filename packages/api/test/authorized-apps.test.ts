import { authenticateBearer, type Principal } from '@chorus/auth';
import {
  createOAuthClient,
  createUser,
  exchangeAuthorizationCode,
  findOAuthClient,
  issueAuthorizationCode,
} from '@chorus/services';
import type { Scope } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory, toApiError } from '../src';
import { startHarness, type Harness } from './harness';

let h: Harness;
let memberId: string;
const createCaller = createCallerFactory(appRouter);
const REDIRECT = 'https://app.example.com/cb';

beforeAll(async () => {
  h = await startHarness();
  const member = await createUser({
    db: h.db,
    principal: session(),
    input: { name: 'Member', email: 'member@apps.test', password: 'member-password', role: 'user' },
  });
  memberId = member.id;
});
afterAll(() => h.close());

const session = (overrides: Partial<Principal> = {}) => h.session(overrides);

const caller = (principal: Principal) =>
  createCaller({
    db: h.db,
    principal,
    requestId: 'req_t',
    origin: 'http://localhost',
    response: {},
  });

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => toApiError(e).code,
  );

async function registerApp(name: string) {
  const { client } = await createOAuthClient({
    db: h.db,
    principal: session(),
    input: { name, redirectUris: [REDIRECT], scopes: ['read', 'write'], confidential: true },
  });
  return client.id;
}

/** The user says yes on the consent page and the app exchanges the code: an access token. */
async function authorize(clientId: string, userId: string, scopes: Scope[]) {
  const client = await findOAuthClient(h.db, clientId);
  if (!client) throw new Error('no client');
  const issued = await issueAuthorizationCode({
    db: h.db,
    request: {
      client,
      redirectUri: REDIRECT,
      redirectUriGiven: true,
      scopes,
      state: undefined,
      codeChallenge: undefined,
    },
    user: { userId, accountId: h.main.accountId },
  });
  const tokens = await exchangeAuthorizationCode({
    db: h.db,
    client,
    code: issued,
    redirectUri: REDIRECT,
    codeVerifier: undefined,
  });
  return tokens.access_token;
}

describe('authorized apps', () => {
  it('lists each app once with the union of its scopes; revoking ends its tokens', async () => {
    const appId = await registerApp('Scheduler');
    const first = await authorize(appId, h.main.adminId, ['read']);
    const second = await authorize(appId, h.main.adminId, ['write']);
    const me = caller(session());
    const apps = await me.authorizedApps.list();
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      clientId: appId,
      name: 'Scheduler',
      scopes: ['read', 'write'],
    });
    expect((apps[0]?.firstAuthorizedAt ?? '') <= (apps[0]?.lastAuthorizedAt ?? '')).toBe(true);
    expect(await authenticateBearer(h.db, first)).not.toBeNull();

    expect(await me.authorizedApps.revoke({ clientId: appId })).toMatchObject({ revokedGrants: 2 });
    expect(await authenticateBearer(h.db, first)).toBeNull();
    expect(await authenticateBearer(h.db, second)).toBeNull();
    expect(await me.authorizedApps.list()).toEqual([]);
    // Revoked already: nothing left to revoke.
    expect(await code(me.authorizedApps.revoke({ clientId: appId }))).toBe('resource_not_found');
  });

  it("each user sees only their own; another user's authorization is a 404 to revoke", async () => {
    const appId = await registerApp('Reporter');
    const token = await authorize(appId, memberId, ['read']);
    const member = caller(session({ userId: memberId, role: 'user' }));
    expect((await member.authorizedApps.list()).map((app) => app.name)).toEqual(['Reporter']);
    // Even an admin does not see or revoke a member's authorization here.
    const admin = caller(session());
    expect((await admin.authorizedApps.list()).map((app) => app.name)).not.toContain('Reporter');
    expect(await code(admin.authorizedApps.revoke({ clientId: appId }))).toBe('resource_not_found');
    expect(await authenticateBearer(h.db, token)).not.toBeNull();
    // A foreign account's user with the same id shape gets 404 too.
    const other = await h.newAccount('Other', 'admin@other-apps.test');
    const stranger = caller(session({ accountId: other.accountId, userId: other.adminId }));
    expect(await code(stranger.authorizedApps.revoke({ clientId: appId }))).toBe(
      'resource_not_found',
    );
    await member.authorizedApps.revoke({ clientId: appId });
    expect(await authenticateBearer(h.db, token)).toBeNull();
  });

  it('refuses bearer tokens: only the signed-in dashboard user', async () => {
    const viaKey = caller(session({ credential: { kind: 'api_key', id: 'key' } }));
    expect(await code(viaKey.authorizedApps.list())).toBe('forbidden');
    expect(await code(viaKey.authorizedApps.revoke({ clientId: 'app_x' }))).toBe('forbidden');
  });
});
