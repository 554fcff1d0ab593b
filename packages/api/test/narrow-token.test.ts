/**
 * docs/security.md, "Narrow credentials leak": a bearer token cannot become a full login (own password without the current
 * one, two-factor switches), and a password or role change ends the user's dashboard sessions.
 */
import { authenticateSession, totpCode, type Principal } from '@chorus/auth';
import { eq, users } from '@chorus/db';
import {
  beginTwoFactorEnrollment,
  confirmTwoFactorEnrollment,
  endSession,
  verifyDashboardLogin,
} from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory } from '../src';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let n = 0;
/** A user of the main account with a `write`-scoped key of their own. */
async function member() {
  n += 1;
  const email = `member-${n}@acme.test`;
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email, password: 'old-password-1' },
  });
  const id = created.json.id as string;
  const { secret } = await h.keyFor(id, ['read', 'write']);
  return { id, email, token: secret };
}

const generationOf = async (id: string) =>
  (await h.db.select().from(users).where(eq(users.id, id)))[0]?.sessionGeneration;

const sessionOf = async (userId: string) => {
  const generation = (await generationOf(userId)) ?? -1;
  return { userId, sessionId: 'sid', generation };
};

const caller = (principal: Principal) =>
  createCallerFactory(appRouter)({
    db: h.db,
    principal,
    requestId: 'req_test',
    origin: 'http://localhost:3000',
    response: {},
  });

describe('a bearer token changing its own password', () => {
  it('needs currentPassword, refuses a wrong one, and accepts the right one', async () => {
    const m = await member();
    const put = (body: object) => h.call('PUT', `/api/users/${m.id}`, { token: m.token, body });
    const missing = await put({ password: 'new-password-1' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.issues[0].path).toBe('currentPassword');
    const wrong = await put({ password: 'new-password-1', currentPassword: 'nope-nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.details.issues[0].path).toBe('currentPassword');
    await expect(
      verifyDashboardLogin({ db: h.db, email: m.email, password: 'old-password-1' }),
    ).resolves.toMatchObject({ userId: m.id });
    const right = await put({ password: 'new-password-1', currentPassword: 'old-password-1' });
    expect(right.status).toBe(200);
    await expect(
      verifyDashboardLogin({ db: h.db, email: m.email, password: 'new-password-1' }),
    ).resolves.toMatchObject({ userId: m.id });
  });

  it("lets an admin set another user's password without it (provisioning)", async () => {
    const m = await member();
    const res = await h.call('PUT', `/api/users/${m.id}`, { body: { password: 'given-by-admin' } });
    expect(res.status).toBe(200);
  });

  it("ends the user's dashboard sessions on a password change and a role change", async () => {
    const m = await member();
    const before = await sessionOf(m.id);
    expect(await authenticateSession(h.db, before)).not.toBeNull();
    await h.call('PUT', `/api/users/${m.id}`, { body: { password: 'given-by-admin' } });
    expect(await authenticateSession(h.db, before)).toBeNull();
    const second = await sessionOf(m.id);
    await h.call('PUT', `/api/users/${m.id}`, { body: { name: 'Renamed' } });
    expect(await authenticateSession(h.db, second)).not.toBeNull();
    await h.call('PUT', `/api/users/${m.id}`, { body: { role: 'admin' } });
    expect(await authenticateSession(h.db, second)).toBeNull();
  });
});

describe('a dashboard session changing its own sign-in', () => {
  const signedIn = async (id: string) => {
    const principal = await authenticateSession(h.db, await sessionOf(id));
    if (!principal) throw new Error('no session');
    return caller(principal);
  };
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'accepted',
      (error: { cause?: { code?: string; details?: { issues?: { path: string }[] } } }) =>
        `${error.cause?.code}:${error.cause?.details?.issues?.[0]?.path}`,
    );

  it('needs the current password for its own password, refusing a missing or wrong one', async () => {
    const m = await member();
    const me = await signedIn(m.id);
    const change = (extra: object) =>
      refusal(me.users.update({ userId: m.id, password: 'new-password-1', ...extra }));
    expect(await change({})).toBe('validation_error:currentPassword');
    expect(await change({ currentPassword: 'nope-nope' })).toBe('validation_error:currentPassword');
    await expect(
      verifyDashboardLogin({ db: h.db, email: m.email, password: 'old-password-1' }),
    ).resolves.toMatchObject({ userId: m.id });
    expect(await change({ currentPassword: 'old-password-1' })).toBe('accepted');
    await expect(
      verifyDashboardLogin({ db: h.db, email: m.email, password: 'new-password-1' }),
    ).resolves.toMatchObject({ userId: m.id });
  });

  it('needs it for its own new email, but not for a name or the same email', async () => {
    const m = await member();
    const me = await signedIn(m.id);
    const email = `moved-${m.email}`;
    expect(await refusal(me.users.update({ userId: m.id, name: 'Renamed', email: m.email }))).toBe(
      'accepted',
    );
    expect(await refusal(me.users.update({ userId: m.id, email }))).toBe(
      'validation_error:currentPassword',
    );
    expect(
      await refusal(me.users.update({ userId: m.id, email, currentPassword: 'wrong-one-1' })),
    ).toBe('validation_error:currentPassword');
    expect((await me.users.get({ userId: m.id })).email).toBe(m.email);
    expect(
      await refusal(me.users.update({ userId: m.id, email, currentPassword: 'old-password-1' })),
    ).toBe('accepted');
    expect((await me.users.get({ userId: m.id })).email).toBe(email);
  });

  it("lets an admin's session set another user's password and email without it", async () => {
    const m = await member();
    const admin = await signedIn(h.main.adminId);
    const email = `given-${m.email}`;
    await admin.users.update({ userId: m.id, password: 'given-by-admin', email });
    await expect(
      verifyDashboardLogin({ db: h.db, email, password: 'given-by-admin' }),
    ).resolves.toMatchObject({ userId: m.id });
  });

  it("leaves a bearer token's own email change as it was (no current password)", async () => {
    const m = await member();
    const res = await h.call('PUT', `/api/users/${m.id}`, {
      token: m.token,
      body: { email: `token-${m.email}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('two-factor authentication over a bearer token', () => {
  it('cannot be turned off, even by an admin key', async () => {
    const m = await member();
    const session = await authenticateSession(h.db, await sessionOf(m.id));
    if (!session) throw new Error('no session');
    const { secret } = await beginTwoFactorEnrollment({ db: h.db, principal: session });
    await confirmTwoFactorEnrollment({ db: h.db, principal: session, code: totpCode(secret) });
    for (const token of [m.token, h.main.token]) {
      const res = await h.call('PUT', `/api/users/${m.id}`, {
        token,
        body: { settings: { twoFactorAuth: false } },
      });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    const [row] = await h.db.select().from(users).where(eq(users.id, m.id));
    expect(row?.twoFactorEnabled).toBe(true);
  });
});

describe('sign out everywhere', () => {
  it('ends every session of the user, and is refused to a bearer token', async () => {
    const m = await member();
    const first = await sessionOf(m.id);
    const principal = await authenticateSession(h.db, first);
    if (!principal) throw new Error('no session');
    await caller(principal).sessions.endAll();
    expect(await authenticateSession(h.db, first)).toBeNull();
    const viaKey = { ...principal, credential: { kind: 'api_key' as const, id: 'key_x' } };
    await expect(caller(viaKey).sessions.endAll()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('sign-out', () => {
  it('ends that session only', async () => {
    const m = await member();
    const generation = (await generationOf(m.id)) ?? -1;
    const one = { userId: m.id, sessionId: 'sid-one', generation };
    const two = { userId: m.id, sessionId: 'sid-two', generation };
    await endSession({ db: h.db, ...one, expiresAt: new Date(Date.now() + 3600_000) });
    expect(await authenticateSession(h.db, one)).toBeNull();
    expect(await authenticateSession(h.db, two)).not.toBeNull();
  });
});
