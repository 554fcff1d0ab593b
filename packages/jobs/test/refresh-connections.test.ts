import { and, eq, events, integrationConnections, type Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import {
  completeOAuthCallback,
  connectIntegration,
  connectionCredentials,
  createAccount,
  refreshExpiringCredentials,
  storeConnection,
} from '@chorus/services';
import {
  dropboxFaults,
  googleFaults,
  startCanvaStandIn,
  startDropboxStandIn,
  startFigmaStandIn,
  startGoogleStandIn,
  type CanvaStandIn,
  type DropboxStandIn,
  type FigmaStandIn,
  type GoogleStandIn,
  type OAuthStandIn,
} from '@chorus/stand-ins';
import { SCOPES } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionRow } from './publishing-fixtures';

/**
 * The periodic token refresh (the `publishing.refresh-tokens` job) for connections that have
 * no channels: storage and design platforms, against stand-ins of Dropbox (refresh tokens that
 * do not rotate), Google (Drive), Canva (single-use refresh tokens) and Figma (a refresh
 * endpoint of its own).
 */

let database: Database;
let dropbox: DropboxStandIn;
let google: GoogleStandIn;
let canva: CanvaStandIn;
let figma: FigmaStandIn;
const AHEAD = 15 * 60_000;
let accounts = 0;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  database = await createTestDatabase();
  [dropbox, google, canva, figma] = await Promise.all([
    startDropboxStandIn(),
    startGoogleStandIn(),
    startCanvaStandIn(),
    startFigmaStandIn(),
  ]);
  const point = (prefix: string, standIn: OAuthStandIn, paths: Record<string, string>) => {
    process.env[`${prefix}CLIENT_ID`] = standIn.client.clientId;
    process.env[`${prefix}CLIENT_SECRET`] = standIn.client.clientSecret;
    for (const [name, path] of Object.entries(paths)) {
      process.env[`${prefix}${name}_URL`] = `${standIn.url}${path}`;
    }
  };
  point('CHORUS_INTEGRATION_DROPBOX_', dropbox, {
    AUTHORIZE: '/oauth2/authorize',
    TOKEN: '/oauth2/token',
    PROFILE: '/2/users/get_current_account',
    REVOKE: '/2/auth/token/revoke',
  });
  point('CHORUS_INTEGRATION_GOOGLE_DRIVE_', google, {
    AUTHORIZE: '/o/oauth2/v2/auth',
    TOKEN: '/token',
    PROFILE: '/drive/v3/about?fields=user',
    REVOKE: '/revoke',
  });
  point('CHORUS_INTEGRATION_CANVA_', canva, {
    AUTHORIZE: '/api/oauth/authorize',
    TOKEN: '/rest/v1/oauth/token',
    PROFILE: '/rest/v1/users/me/profile',
  });
  point('CHORUS_INTEGRATION_FIGMA_', figma, {
    AUTHORIZE: '/oauth',
    TOKEN: '/v1/oauth/token',
    REFRESH: '/v1/oauth/refresh',
    PROFILE: '/v1/me',
  });
});

afterAll(async () => {
  await Promise.all([dropbox?.close(), google?.close(), canva?.close(), figma?.close()]);
  await database?.close();
});

async function account() {
  accounts += 1;
  const name = `refresh${accounts}`;
  return createAccount(database.db, {
    name,
    admin: { name: 'Ada', email: `ada@${name}.test`, password: 'correct horse battery' },
  });
}

/** A connection as the callback stores it, with tokens the stand-in issued, due in a minute. */
async function connected(integrationId: string, standIn: OAuthStandIn, expiresIn = 60) {
  const { accountId, adminId } = await account();
  const user = standIn.addUser();
  await storeConnection({
    db: database.db,
    accountId,
    userId: adminId,
    integrationId,
    credentials: {
      kind: 'oauth2',
      accessToken: user.token,
      ...(user.refreshToken ? { refreshToken: user.refreshToken } : {}),
      expiresIn,
    },
    scopes: [],
    meta: { accountName: integrationId, pages: [] },
    now: new Date(),
  });
  return { accountId, ...user };
}

async function connectionOf(accountId: string, integrationId: string) {
  const row = await connectionRow(database.db, accountId, integrationId);
  if (!row) throw new Error(`no ${integrationId} connection`);
  return { row, credentials: connectionCredentials(row) };
}

const needsReconnectEvents = (accountId: string) =>
  database.db
    .select({ payload: events.payload })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));

/** The refresh grants a stand-in received. */
const refreshRequests = (standIn: OAuthStandIn) =>
  standIn.received.filter(
    (r) => r.method === 'POST' && r.body.toString().includes('grant_type=refresh_token'),
  );

const refresh = (env?: Record<string, string | undefined>) =>
  refreshExpiringCredentials({ db: database.db, aheadMs: AHEAD, ...(env ? { env } : {}) });

describe('connections without channels', () => {
  it('keeps the expiry and the refresh token at connect, and refreshes before the expiry', async () => {
    const { accountId, adminId } = await account();
    dropbox.addUser();
    const principal = {
      accountId,
      userId: adminId,
      role: 'admin' as const,
      tier: 'free' as const,
      credential: { kind: 'session' as const, id: 'test' },
      scopes: [...SCOPES],
    };
    const pending = await connectIntegration({
      db: database.db,
      principal,
      integrationId: 'dropbox',
      origin: 'http://localhost:3000',
    });
    if (!('authUrl' in pending)) throw new Error('Dropbox did not answer pending');
    const approved = await fetch(pending.authUrl, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location') ?? '');
    const done = await completeOAuthCallback({
      db: database.db,
      integrationId: 'dropbox',
      state: back.searchParams.get('state') ?? undefined,
      code: back.searchParams.get('code') ?? undefined,
    });
    expect(new URL(done.location).searchParams.get('status')).toBe('connected');

    const first = await connectionOf(accountId, 'dropbox');
    // Four hours from the token answer, as an instant: no refresh is due yet.
    const fourHours = Date.now() + 14_400_000;
    expect(first.row.tokenExpiresAt?.getTime()).toBeGreaterThan(fourHours - 60_000);
    expect(first.row.tokenExpiresAt?.getTime()).toBeLessThanOrEqual(fourHours);
    const { accessToken, refreshToken } = first.credentials ?? {};
    expect(refreshToken).toEqual(expect.any(String));
    expect(first.row.credentials).not.toContain(refreshToken);
    const before = refreshRequests(dropbox).length;
    await refresh();
    expect(refreshRequests(dropbox).length).toBe(before);

    // Nearly four hours later: the access token is about to end.
    dropbox.expire(accessToken ?? '');
    await database.db
      .update(integrationConnections)
      .set({ tokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(integrationConnections.accountId, accountId));
    expect(await refresh()).toBeGreaterThanOrEqual(1);
    expect(refreshRequests(dropbox).length).toBe(before + 1);
    const after = await connectionOf(accountId, 'dropbox');
    expect(after.row.status).toBe('connected');
    expect(after.row.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + AHEAD);
    expect(after.credentials?.accessToken).not.toBe(accessToken);
    // Dropbox does not rotate: the refresh token is the one it gave at connect.
    expect(after.credentials?.refreshToken).toBe(refreshToken);
    const profile = await fetch(`${dropbox.url}/2/users/get_current_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${after.credentials?.accessToken}` },
    });
    expect(profile.status).toBe(200);
  });

  it('authenticates the refresh as the code grant does for the platform (Canva: HTTP Basic)', async () => {
    await connected('canva', canva);
    const before = refreshRequests(canva).length;
    await refresh();
    const sent = refreshRequests(canva).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.authorization).toMatch(/^Basic /);
    expect(sent[0]?.body.toString()).not.toContain('client_secret');
  });

  it('stores the refresh token a rotating platform answers (Canva)', async () => {
    const user = await connected('canva', canva);
    await refresh();
    const { credentials } = await connectionOf(user.accountId, 'canva');
    expect(credentials?.refreshToken).toEqual(expect.any(String));
    expect(credentials?.refreshToken).not.toBe(user.refreshToken);
    // The new one works: a run that takes every connection refreshes it again, refused nowhere.
    await refreshExpiringCredentials({ db: database.db, aheadMs: 365 * 86_400_000 });
    expect((await connectionOf(user.accountId, 'canva')).row.status).toBe('connected');
    expect(await needsReconnectEvents(user.accountId)).toEqual([]);
  });

  it('refreshes Figma at its refresh endpoint, in HTTP Basic, keeping the refresh token it does not replace', async () => {
    const user = await connected('figma', figma);
    const before = figma.received.length;
    await refresh();
    const sent = figma.received.slice(before).filter((r) => r.method === 'POST');
    expect(sent.map((r) => r.url)).toEqual(['/v1/oauth/refresh']);
    expect(sent[0]?.headers.authorization).toMatch(/^Basic /);
    expect(sent[0]?.body.toString()).not.toContain('client_secret');
    const { row, credentials } = await connectionOf(user.accountId, 'figma');
    expect(row.status).toBe('connected');
    expect(credentials?.accessToken).not.toBe(user.token);
    expect(credentials?.refreshToken).toBe(user.refreshToken);
    expect(row.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + AHEAD);
    const me = await fetch(`${figma.url}/v1/me`, {
      headers: { authorization: `Bearer ${credentials?.accessToken}` },
    });
    expect(me.status).toBe(200);
  });

  it('marks a connection whose refresh token is refused (invalid_grant) needs_reconnect, once', async () => {
    const user = await connected('google-drive', google);
    google.revoke(user.refreshToken ?? '');
    await refresh();
    const { row } = await connectionOf(user.accountId, 'google-drive');
    expect(row.status).toBe('needs_reconnect');
    const recorded = await needsReconnectEvents(user.accountId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.payload.data.object).toMatchObject({
      integrationId: 'google-drive',
      status: 'needs_reconnect',
    });
    // Not visited again until it is connected again.
    const before = refreshRequests(google).length;
    await refresh();
    expect(refreshRequests(google).length).toBe(before);
    expect(await needsReconnectEvents(user.accountId)).toHaveLength(1);
  });

  it('leaves a connection connected when the platform fails (5xx, no answer), and refreshes it on the next run', async () => {
    const user = await connected('dropbox', dropbox);
    dropbox.faults.inject(dropboxFaults.unavailable(), { path: '/oauth2/token' });
    // Even a 5xx whose body says invalid_grant is the platform's trouble, not a refusal.
    dropbox.faults.inject(
      { kind: 'answer', answer: { status: 500, body: { error: 'invalid_grant' } } },
      { path: '/oauth2/token' },
    );
    await refresh();
    await refresh();
    await refresh({ ...process.env, CHORUS_INTEGRATION_DROPBOX_TOKEN_URL: 'http://127.0.0.1:9/t' });
    const failed = await connectionOf(user.accountId, 'dropbox');
    expect(failed.row.status).toBe('connected');
    expect(failed.credentials?.accessToken).toBe(user.token);
    expect(await needsReconnectEvents(user.accountId)).toEqual([]);

    await refresh();
    const after = await connectionOf(user.accountId, 'dropbox');
    expect(after.credentials?.accessToken).not.toBe(user.token);
    expect(after.row.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + AHEAD);
  });

  it('the same for Google: a 500 from its token endpoint marks nothing, and is logged', async () => {
    const user = await connected('google-drive', google);
    google.faults.inject(googleFaults.unavailable(), { path: '/token' });
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await refresh();
    } finally {
      stderr.mockRestore();
    }
    const logged = lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'token refresh failed',
        accountId: user.accountId,
        integrationId: 'google-drive',
      }),
    );
    expect((await connectionOf(user.accountId, 'google-drive')).row.status).toBe('connected');
    expect(await needsReconnectEvents(user.accountId)).toEqual([]);
  });

  it('two runs at once refresh a connection once, and keep the refresh token that works', async () => {
    const user = await connected('canva', canva);
    // Slow answers, so that both runs are under way while the platform answers.
    canva.faults.inject({ kind: 'slow', ms: 300 }, { path: '/rest/v1/oauth/token' });
    const before = refreshRequests(canva).length;
    await Promise.all([refresh(), refresh()]);
    expect(refreshRequests(canva).length - before).toBe(1);
    const { row, credentials } = await connectionOf(user.accountId, 'canva');
    expect(row.status).toBe('connected');
    expect(credentials?.refreshToken).not.toBe(user.refreshToken);
    // What was stored is the token Canva rotated in: the next refresh is accepted.
    await refreshExpiringCredentials({ db: database.db, aheadMs: 365 * 86_400_000 });
    expect((await connectionOf(user.accountId, 'canva')).row.status).toBe('connected');
  });

  it('asks for a reconnection when the platform gave no refresh token', async () => {
    const { accountId, adminId } = await account();
    const user = dropbox.addUser({ offline: false });
    await storeConnection({
      db: database.db,
      accountId,
      userId: adminId,
      integrationId: 'dropbox',
      credentials: { kind: 'oauth2', accessToken: user.token, expiresIn: 60 },
      scopes: [],
      meta: { accountName: 'Dropbox', pages: [] },
      now: new Date(),
    });
    await refresh();
    expect((await connectionOf(accountId, 'dropbox')).row.status).toBe('needs_reconnect');
    expect(await needsReconnectEvents(accountId)).toHaveLength(1);
  });
});
