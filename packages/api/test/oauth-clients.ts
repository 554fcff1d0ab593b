import { createOAuthClient, findOAuthClient } from '@chorus/services';
import { SCOPES } from '@chorus/validators';
import type { Harness } from './harness';

export const REDIRECT = 'https://client.example.test/cb';

/** An OAuth application of the main account, every scope, one redirect: its row and secret. */
export async function registerClient(h: Harness, confidential: boolean) {
  const { client, clientSecret } = await createOAuthClient({
    db: h.db,
    principal: h.session(),
    input: { name: 'App', redirectUris: [REDIRECT], scopes: [...SCOPES], confidential },
  });
  const row = await findOAuthClient(h.db, client.id);
  if (!row) throw new Error('no client');
  return { row, secret: clientSecret ?? '' };
}
