import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEntry, type OAuthEntry } from '../src/integrations/catalogue';
import { refreshGrant } from '../src/integrations/oauth-client';

/**
 * What our side of a token endpoint makes of the platform's answers to the refresh grant: only a
 * 4xx `invalid_grant` is a refusal (the connection must be connected again); a 5xx, whatever
 * its body, and an answer that is not a token answer may work next time. Answers are hostile:
 * a field of the wrong type is not taken.
 */

let server: Server;
let tokenUrl: string;
let next: { status: number; body: string; type?: string } = { status: 200, body: '{}' };
let lastBody = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      lastBody = Buffer.concat(chunks).toString();
      res.writeHead(next.status, { 'content-type': next.type ?? 'application/json' });
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dropbox = findEntry('dropbox') as OAuthEntry;
const answer = async (status: number, body: unknown, type?: string) => {
  next = { status, body: typeof body === 'string' ? body : JSON.stringify(body), type };
  return refreshGrant(
    dropbox,
    {
      authorizeUrl: dropbox.urls.authorize,
      tokenUrl,
      refreshUrl: tokenUrl,
      profileUrl: dropbox.urls.profile,
      revokeUrl: undefined,
      metricsUrl: undefined,
      clientId: 'our-client',
      clientSecret: 'our-secret',
    },
    'the-refresh-token',
  );
};

describe('refreshGrant', () => {
  it('sends the refresh grant with our client as the platform takes it', async () => {
    await answer(200, { access_token: 'new', expires_in: 14_400 });
    expect(Object.fromEntries(new URLSearchParams(lastBody))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'the-refresh-token',
      client_id: 'our-client',
      client_secret: 'our-secret',
    });
  });

  it('reads a token answer, rotated refresh token and string expires_in included', async () => {
    expect(await answer(200, { access_token: 'a', refresh_token: 'r2', expires_in: 3599 })).toEqual(
      { ok: true, tokens: { accessToken: 'a', refreshToken: 'r2', expiresIn: 3599 } },
    );
    expect(await answer(200, 'access_token=a&expires_in=60', 'text/plain')).toEqual({
      ok: true,
      tokens: { accessToken: 'a', expiresIn: 60 },
    });
  });

  it('drops optional fields of the wrong type or out of range, and refuses no access token', async () => {
    expect(
      await answer(200, { access_token: 'a', refresh_token: 7, expires_in: 1e15, scope: {} }),
    ).toEqual({ ok: true, tokens: { accessToken: 'a' } });
    for (const body of [{ access_token: 42 }, { access_token: '' }, [], 'null', '<html>']) {
      expect(await answer(200, body)).toEqual({
        ok: false,
        error: 'token_exchange_failed',
        refused: false,
      });
    }
  });

  it('is refused by a 4xx invalid_grant only', async () => {
    expect(await answer(400, { error: 'invalid_grant', error_description: 'revoked' })).toEqual({
      ok: false,
      error: 'invalid_grant',
      refused: true,
    });
    expect(await answer(500, { error: 'invalid_grant' })).toMatchObject({ refused: false });
    expect(await answer(503, 'Service Unavailable', 'text/plain')).toMatchObject({
      refused: false,
    });
    expect(await answer(401, { error: 'invalid_client' })).toEqual({
      ok: false,
      error: 'invalid_client',
      refused: false,
    });
  });
});
