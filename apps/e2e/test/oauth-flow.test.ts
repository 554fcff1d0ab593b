/**
 * The authorization-code flow with PKCE as a third-party application lives it: a real OAuth
 * client library (oauth4webapi) on one side, the login and consent done in Chromium on the
 * other, then the REST API with the token, refresh rotation, reuse detection, revocation and
 * introspection, all over HTTP against `npm start`.
 */
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, signIn } from './browser';
import { ADMIN } from './server';

const base = inject('base');
// Never served: the browser's request to it is answered by the test (see page.route).
const REDIRECT_URI = 'http://127.0.0.1:47201/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

let browser: Browser;
let context: BrowserContext;
let page: Page;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let clientAuth: oauth.ClientAuth;

/** Where the browser was sent back to; the client's redirect URI is answered here, not served. */
let callbacks: URL[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: base });
  page = await context.newPage();
  await page.route(`${REDIRECT_URI}**`, (route) => {
    callbacks.push(new URL(route.request().url()));
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback received' });
  });

  // An admin registers the application in the dashboard; its secret is shown once.
  await page.goto('/dashboard/oauth-apps');
  await page.waitForURL((url) => url.pathname === '/sign-in');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL('**/dashboard/oauth-apps');
  await page.getByLabel('Name').fill('E2E Scheduler');
  await page.getByLabel('Redirect URIs').fill(REDIRECT_URI);
  for (const scope of ['write', 'content:read']) {
    await page.locator(`input[name="scopes"][value="${scope}"]`).check();
  }
  await page.getByRole('button', { name: 'Register' }).click();
  const clientId = await page.getByTestId('new-client-id').textContent();
  const secret = await page.getByTestId('one-time-secret').textContent();
  expect(clientId).toMatch(/^app_/);
  expect(secret).toMatch(/^cso_cs_/);
  await page.getByTestId('oauth-app-E2E Scheduler').waitFor();

  const issuer = new URL(base);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  client = { client_id: clientId ?? '' };
  clientAuth = oauth.ClientSecretBasic(secret ?? '');
});

afterAll(async () => {
  await browser?.close();
});

/** Runs the browser part of the flow; returns the callback URL and the PKCE verifier. */
async function authorizeInBrowser(scope: string, decision: 'Allow' | 'Deny' = 'Allow') {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? '');
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  callbacks = [];
  const consent = await page.goto(url.toString());
  await page.getByRole('button', { name: decision }).click();
  await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBe(1);
  // The callback is seen when the browser asks for it, before it has loaded it: a next
  // navigation started before then would be interrupted by this one.
  await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
  const [callback] = callbacks;
  if (!callback) throw new Error('no callback');
  return { callback, verifier, state, consent };
}

async function authorizeAndExchange(scope: string) {
  const { callback, verifier, state } = await authorizeInBrowser(scope);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    clientAuth,
    params,
    REDIRECT_URI,
    verifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return { tokens, params, verifier };
}

const api = (token: string, path = '/api/users') =>
  fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

const refresh = async (refreshToken: string) =>
  oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure),
  );

const introspect = async (token: string) =>
  oauth.processIntrospectionResponse(
    as,
    client,
    await oauth.introspectionRequest(as, client, clientAuth, token, insecure),
  );

const revoke = async (token: string) =>
  oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, clientAuth, token, insecure),
  );

/** The OAuth error a library call failed with. */
const oauthError = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof oauth.ResponseBodyError ? error.error : String(error)),
  );

describe('metadata (RFC 8414)', () => {
  it('lists the endpoints, the scopes and S256', () => {
    expect(as.issuer).toBe(base);
    expect(as.token_endpoint).toBe(`${base}/oauth/token`);
    expect(as.scopes_supported).toEqual([
      'read',
      'write',
      'content:read',
      'content:write',
      'analytics:read',
      'analytics:write',
    ]);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
  });
});

describe('the authorization code flow with PKCE', () => {
  it('shows a consent page that cannot be framed, then issues tokens that work on the REST API', async () => {
    const { callback, verifier, state, consent } = await authorizeInBrowser('read,write');
    expect(consent?.status()).toBe(200);
    expect(consent?.headers()['x-frame-options']).toBe('DENY');
    expect(consent?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    // Its URL and form carry the request (state, code_challenge): no Referer, ever.
    expect(consent?.headers()['referrer-policy']).toBe('no-referrer');
    expect(consent?.headers()['cache-control']).toBe('no-store');
    expect(callback.searchParams.get('state')).toBe(state);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      REDIRECT_URI,
      verifier,
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write' });
    expect(tokens.access_token).toMatch(/^cso_at_/);
    expect(tokens.refresh_token).toMatch(/^cso_rt_/);

    const users = await api(tokens.access_token);
    expect(users.status).toBe(200);
    expect((await users.json()).data).toContainEqual(
      expect.objectContaining({ email: ADMIN.email, role: 'admin' }),
    );

    // The same code again: refused, and the tokens it gave are revoked.
    const again = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      REDIRECT_URI,
      verifier,
      insecure,
    );
    expect(await oauthError(oauth.processAuthorizationCodeResponse(as, client, again))).toBe(
      'invalid_grant',
    );
    expect((await api(tokens.access_token)).status).toBe(401);
  });

  it('rotates refresh tokens, and a retired one revokes the whole grant', async () => {
    const { tokens } = await authorizeAndExchange('read');
    const rotated = await refresh(tokens.refresh_token ?? '');
    expect(rotated.refresh_token).toMatch(/^cso_rt_/);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api(rotated.access_token)).status).toBe(200);
    expect(await introspect(rotated.access_token)).toMatchObject({
      active: true,
      scope: 'read',
      client_id: client.client_id,
      username: ADMIN.email,
    });

    expect(await oauthError(refresh(tokens.refresh_token ?? ''))).toBe('invalid_grant');
    expect((await api(rotated.access_token)).status).toBe(401);
    expect(await introspect(rotated.access_token)).toEqual({ active: false });
    expect(await oauthError(refresh(rotated.refresh_token ?? ''))).toBe('invalid_grant');
  });

  it('revokes: a refresh token ends the grant; unknown tokens are 200', async () => {
    const { tokens } = await authorizeAndExchange('read');
    await revoke(tokens.refresh_token ?? '');
    expect((await api(tokens.access_token)).status).toBe(401);
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
    await expect(revoke('cso_rt_unknown')).resolves.toBeUndefined();
  });

  it('limits a token to its scopes: content:read is refused on /api/users', async () => {
    const { tokens } = await authorizeAndExchange('content:read');
    const res = await api(tokens.access_token);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({
      code: 'insufficient_scope',
      details: { requiredScopes: ['read'] },
    });
  });

  it('sends access_denied with the state back when the user denies', async () => {
    const { callback, state } = await authorizeInBrowser('read', 'Deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('shows an error page, never a redirect, for an unregistered redirect URI', async () => {
    const url = `${base}/oauth/authorize?client_id=${client.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code&scope=read`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const unknown = await fetch(`${base}/oauth/authorize?client_id=app_nope&response_type=code`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
  });

  it('redirects other errors to the client, with the state', async () => {
    const url = `${base}/oauth/authorize?client_id=${client.client_id}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&response_type=code&scope=admin&state=s1`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('refuses a consent decision without the session’s CSRF token', async () => {
    const res = await page.request.post('/oauth/authorize', {
      form: {
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'read',
        decision: 'allow',
        csrf_token: 'forged',
      },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    expect(res.headers().location).toBeUndefined();
  });
});
