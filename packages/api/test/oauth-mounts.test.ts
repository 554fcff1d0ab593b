/**
 * The OAuth machine endpoints as mounts of the app's listener (served beside the API's doors,
 * not by the web app): each answers its own method at its own path, anything else is refused
 * in the envelope, and the web app keeps every other /oauth/ path (the consent page).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthMounts } from '../src/oauth';
import { createApiListener, createHttpServer } from '../src/server';
import { startHarness, type Harness } from './harness';

let h: Harness;
let base: string;
const server = createHttpServer();

beforeAll(async () => {
  h = await startHarness();
  server.on(
    'request',
    createApiListener({
      mounts: [...oauthMounts({ getDatabase: async () => h.database }), ['/api', h.handle]],
      webPaths: ['/api/auth'],
      web: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('web'),
      corsOrigins: new Set(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await h?.close();
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('OAuth mounts', () => {
  it('serve token, revocation and introspection in the OAuth error format, uncached', async () => {
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      const res = await fetch(`${base}${path}`, form({ client_id: 'cli_unknown' }));
      expect(res.status, path).toBe(401);
      expect((await res.json()) as unknown, path).toMatchObject({ error: 'invalid_client' });
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('serve the metadata to GET and HEAD', async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token_endpoint: string }).token_endpoint).toBe(
      `${base}/oauth/token`,
    );
    const head = await fetch(`${base}/.well-known/oauth-authorization-server`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('refuse another method with 405 naming the allowed one, a path below with 404', async () => {
    const get = await fetch(`${base}/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe(
      'method_not_allowed',
    );
    expect(get.headers.get('x-request-id')).toMatch(/^req_/);
    const below = await fetch(`${base}/oauth/token/more`, form({}));
    expect(below.status).toBe(404);
  });

  it('answer OPTIONS with 204 and the methods each endpoint allows', async () => {
    for (const [path, allow] of [
      ['/oauth/token', 'POST, OPTIONS'],
      ['/oauth/revoke', 'POST, OPTIONS'],
      ['/oauth/introspect', 'POST, OPTIONS'],
      ['/.well-known/oauth-authorization-server', 'GET, HEAD, OPTIONS'],
    ]) {
      const res = await fetch(`${base}${path}`, { method: 'OPTIONS' });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('allow'), path).toBe(allow);
      expect(res.headers.get('api-version'), path).toBe('1');
      expect(res.headers.get('x-ratelimit-limit'), path).toMatch(/^\d+$/);
    }
  });

  it('leave the consent page and other paths to the web app', async () => {
    for (const path of ['/oauth/authorize', '/oauth', '/dashboard']) {
      const res = await fetch(`${base}${path}`);
      expect(await res.text(), path).toBe('web');
    }
  });
});
