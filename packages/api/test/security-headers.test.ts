import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthEndpoints } from '../src/oauth';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('security headers of the API', () => {
  it('are on every REST answer, errors included; HSTS only when the public URL is https', async () => {
    for (const token of [undefined, null]) {
      const { headers } = await h.call('GET', '/api/users', { token });
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('strict-transport-security')).toBeNull();
    }
    process.env.CHORUS_PUBLIC_URL = 'https://chorus.example.com';
    try {
      const { headers } = await h.call('GET', '/api/users');
      expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
      const endpoints = createOAuthEndpoints({ getDatabase: async () => h.database });
      const token = await endpoints.token(
        new Request('http://localhost/oauth/token', { method: 'POST' }),
      );
      expect(token.headers.get('strict-transport-security')).toMatch(/^max-age=/);
      expect(token.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      delete process.env.CHORUS_PUBLIC_URL;
    }
  });
});
