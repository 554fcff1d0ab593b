/**
 * The rate limits of the OAuth machine endpoints: a confidential client that proves itself
 * counts on its own budget wherever it calls from (a partner's servers behind one address
 * refresh tokens for all their users); a public client, and credentials that fail, count on
 * the client address's, as unauthenticated requests do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthEndpoints } from '../src/oauth';
import { startHarness, type Harness } from './harness';
import { registerClient } from './oauth-clients';
import { awayFromWindowEdge, testRateLimiter } from './rate-limiter';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A refresh with an unknown token: refused (400 invalid_grant) once the client is known. */
const refresh = (
  token: (req: Request) => Promise<Response>,
  client: { id: string; secret?: string },
) => {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'unknown' });
  if (client.secret) headers.set('authorization', `Basic ${btoa(`${client.id}:${client.secret}`)}`);
  else form.set('client_id', client.id);
  return token(
    new Request('http://localhost/oauth/token', { method: 'POST', headers, body: form.toString() }),
  );
};
const budget = (res: Response) => [
  res.status,
  res.headers.get('x-ratelimit-limit'),
  res.headers.get('x-ratelimit-remaining'),
];

describe('rate limits at /oauth/token', () => {
  it('count a confidential client on its own budget, anyone else on the address’s', async () => {
    const { row, secret } = await registerClient(h, true);
    const confidential = { id: row.id, secret };
    const publicClient = { id: (await registerClient(h, false)).row.id };
    const rateLimiter = testRateLimiter({ anonymous: 2, oauthClient: 4 });
    const { token } = createOAuthEndpoints({ getDatabase: async () => h.database, rateLimiter });
    await awayFromWindowEdge();

    const byClient = [];
    for (let i = 0; i < 5; i++) byClient.push(budget(await refresh(token, confidential)));
    expect(byClient).toEqual([
      [400, '4', '3'],
      [400, '4', '2'],
      [400, '4', '1'],
      [400, '4', '0'],
      [429, '4', '0'],
    ]);
    // The address's budget was not touched: a public client cannot prove who it is, so it
    // counts there, and so does a wrong secret, which never spends the client's budget.
    expect(budget(await refresh(token, publicClient))).toEqual([400, '2', '1']);
    const wrong = { id: confidential.id, secret: 'cs_not-the-secret' };
    expect(budget(await refresh(token, wrong))).toEqual([401, '2', '0']);
    expect(budget(await refresh(token, wrong))).toEqual([429, '2', '0']);
    expect(budget(await refresh(token, publicClient))).toEqual([429, '2', '0']);
    await rateLimiter.close();
  });
});
