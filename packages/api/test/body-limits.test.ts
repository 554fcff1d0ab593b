/**
 * Bodies are read under a cap on every door, chunked ones included (413), and failed OAuth
 * client authentications are throttled per (client, address) like sign-ins.
 */
import { createOAuthClient } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthEndpoints } from '../src/oauth';
import { startHarness, type Harness } from './harness';
import { serveOnLoopback } from './http-server';

let h: Harness;
let rest: Awaited<ReturnType<typeof serveOnLoopback>>;
let token: Awaited<ReturnType<typeof serveOnLoopback>>;
let client: { id: string; secret: string };
beforeAll(async () => {
  h = await startHarness();
  rest = await serveOnLoopback(h.handle);
  const endpoints = createOAuthEndpoints({ getDatabase: async () => h.database });
  token = await serveOnLoopback(endpoints.token);
  const created = await createOAuthClient({
    db: h.db,
    principal: h.session(),
    input: {
      name: 'App',
      redirectUris: ['https://client.example.test/cb'],
      scopes: ['read'],
      confidential: true,
    },
  });
  client = { id: created.client.id, secret: created.clientSecret ?? '' };
});
afterAll(async () => {
  await rest.close();
  await token.close();
  await h.close();
});

/** A body streamed in 64 KiB chunks without a Content-Length (chunked transfer encoding). */
function chunked(totalBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const post = (base: string, path: string, body: BodyInit, headers: Record<string, string>) =>
  fetch(`${base}${path}`, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('body caps', () => {
  it('refuses a chunked REST body over 1 MiB with 413 in the envelope', async () => {
    const res = await post(rest.base, '/api/users', chunked(2 * 1024 * 1024), {
      authorization: `Bearer ${h.main.token}`,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  it('refuses a /oauth/token body over 64 KiB, chunked or declared, with 413', async () => {
    for (const body of [chunked(256 * 1024), 'a'.repeat(100 * 1024)]) {
      const res = await post(token.base, '/oauth/token', body, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(res.status).toBe(413);
      expect((await res.json()).error).toBe('invalid_request');
    }
  });
});

describe('OAuth client authentication', () => {
  const attempt = (secret: string, ip: string) =>
    post(
      token.base,
      '/oauth/token',
      new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'cso_rt_nope',
        client_id: client.id,
        client_secret: secret,
      }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    );

  it('refuses a (client, address) pair for 15 minutes after 10 failures, without checking', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await attempt('cso_cs_wrong', '203.0.113.40')).status).toBe(401);
    }
    const refused = await attempt(client.secret, '203.0.113.40');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect((await refused.json()).error).toBe('invalid_request');
    // The right secret from another address gets past client authentication (to invalid_grant).
    const other = await attempt(client.secret, '203.0.113.41');
    expect(other.status).toBe(400);
    expect((await other.json()).error).toBe('invalid_grant');
  });
});
