import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dropboxFaults,
  startCanvaStandIn,
  startDropboxStandIn,
  startFigmaStandIn,
  startGoogleStandIn,
  type CanvaStandIn,
  type DropboxStandIn,
  type FigmaStandIn,
  type GoogleStandIn,
} from '../src';

/**
 * The OAuth platforms Chorus connects to without publishing, called as their documentation
 * shows (curl with a form and the app's key and secret): the refresh grant, an expired access
 * token, a revoked grant, for Canva single-use refresh tokens and for Figma a refresh endpoint
 * of its own.
 */
let dropbox: DropboxStandIn;
let google: GoogleStandIn;
let canva: CanvaStandIn;
let figma: FigmaStandIn;

beforeAll(async () => {
  [dropbox, google, canva, figma] = await Promise.all([
    startDropboxStandIn(),
    startGoogleStandIn(),
    startCanvaStandIn(),
    startFigmaStandIn(),
  ]);
});
afterAll(async () => {
  await Promise.all([dropbox?.close(), google?.close(), canva?.close(), figma?.close()]);
});

const basic = (client: { clientId: string; clientSecret: string }) =>
  `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;

async function post(url: string, form: Record<string, string>, authorization?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Dropbox', () => {
  const refresh = (refreshToken: string) =>
    post(
      `${dropbox.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      basic(dropbox.client),
    );
  const account = (token: string) =>
    fetch(`${dropbox.url}/2/users/get_current_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

  it('refreshes an expired access token, keeping the refresh token', async () => {
    const user = dropbox.addUser();
    dropbox.expire(user.token);
    expect(await (await account(user.token)).json()).toMatchObject({
      error: { '.tag': 'expired_access_token' },
    });
    const first = await refresh(user.refreshToken ?? '');
    expect(first).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^sl\./),
        token_type: 'bearer',
        expires_in: 14_400,
        scope: expect.any(String),
      },
    });
    expect((await account(String(first.body.access_token))).status).toBe(200);
    // Not rotated: the same refresh token works again.
    expect((await refresh(user.refreshToken ?? '')).status).toBe(200);
  });

  it('refuses the refresh token of a revoked grant with invalid_grant', async () => {
    const user = dropbox.addUser();
    expect(
      (await post(`${dropbox.url}/2/auth/token/revoke`, {}, `Bearer ${user.token}`)).status,
    ).toBe(200);
    expect(await refresh(user.refreshToken ?? '')).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'refresh token is invalid or revoked' },
    });
  });

  it('refuses a wrong client secret, and plays a 503 when switched on', async () => {
    const user = dropbox.addUser();
    const wrong = await post(
      `${dropbox.url}/oauth2/token`,
      { grant_type: 'refresh_token', refresh_token: user.refreshToken ?? '' },
      basic({ clientId: dropbox.client.clientId, clientSecret: 'nope' }),
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    dropbox.faults.inject(dropboxFaults.unavailable(), { path: '/oauth2/token' });
    expect((await refresh(user.refreshToken ?? '')).status).toBe(503);
    expect((await refresh(user.refreshToken ?? '')).status).toBe(200);
  });
});

describe('Google', () => {
  it('refreshes with the client in the body and refuses once the user revoked access', async () => {
    const user = google.addUser();
    const form = {
      client_id: google.client.clientId,
      client_secret: google.client.clientSecret,
      refresh_token: user.refreshToken ?? '',
      grant_type: 'refresh_token',
    };
    const ok = await post(`${google.url}/token`, form);
    expect(ok.body).toEqual({
      access_token: expect.stringMatching(/^ya29\./),
      expires_in: 3_599,
      scope: 'https://www.googleapis.com/auth/drive.readonly',
      token_type: 'Bearer',
    });
    const about = await fetch(`${google.url}/drive/v3/about?fields=user`, {
      headers: { authorization: `Bearer ${String(ok.body.access_token)}` },
    });
    expect(await about.json()).toMatchObject({ user: { displayName: expect.any(String) } });
    expect((await post(`${google.url}/revoke`, { token: user.refreshToken ?? '' })).status).toBe(
      200,
    );
    expect(await post(`${google.url}/token`, form)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
  });
});

describe('Canva', () => {
  it('answers a new refresh token at each refresh and refuses the one it replaced', async () => {
    const user = canva.addUser();
    const refresh = (refreshToken: string) =>
      post(
        `${canva.url}/rest/v1/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: refreshToken },
        basic(canva.client),
      );
    const first = await refresh(user.refreshToken ?? '');
    expect(first.body.refresh_token).toEqual(expect.any(String));
    expect(first.body.refresh_token).not.toBe(user.refreshToken);
    expect((await refresh(user.refreshToken ?? '')).body).toMatchObject({ error: 'invalid_grant' });
    expect((await refresh(String(first.body.refresh_token))).status).toBe(200);
  });
});

describe('Figma', () => {
  it('refreshes at /v1/oauth/refresh without a new refresh token, never at the token endpoint', async () => {
    const user = figma.addUser();
    const form = { refresh_token: user.refreshToken ?? '' };
    const refreshed = await post(`${figma.url}/v1/oauth/refresh`, form, basic(figma.client));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: 'bearer', expires_in: 7_776_000 });
    expect(refreshed.body).not.toHaveProperty('refresh_token');
    const me = await fetch(`${figma.url}/v1/me`, {
      headers: { authorization: `Bearer ${String(refreshed.body.access_token)}` },
    });
    expect(await me.json()).toMatchObject({ id: user.userId });
    // The refresh token held stays good.
    expect((await post(`${figma.url}/v1/oauth/refresh`, form, basic(figma.client))).status).toBe(
      200,
    );
    const atToken = await post(
      `${figma.url}/v1/oauth/token`,
      { grant_type: 'refresh_token', ...form },
      basic(figma.client),
    );
    expect(atToken).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });
});
