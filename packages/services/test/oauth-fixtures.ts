import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { SCOPES, type Scope } from '@chorus/validators';
import {
  createAccount,
  createOAuthClient,
  findOAuthClient,
  issueAuthorizationCode,
  validateAuthorizeRequest,
  type OAuthClientRow,
} from '../src';

export const REDIRECT = 'https://app.example.test/callback';

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const adminOf = (accountId: string, userId: string): Principal => ({
  accountId,
  userId,
  role: 'admin',
  tier: 'free',
  credential: { kind: 'session', id: 'test' },
  scopes: [...SCOPES],
});

let n = 0;

/** An account with its admin, a confidential and a public client. */
export async function oauthFixture(db: Db) {
  n += 1;
  const email = `oauth-${n}-${randomBytes(3).toString('hex')}@example.test`;
  const { accountId, adminId } = await createAccount(db, {
    name: `OAuth ${n}`,
    admin: { email, password: 'password-oauth' },
  });
  const admin = adminOf(accountId, adminId);
  const make = async (confidential: boolean, scopes: Scope[] = [...SCOPES]) => {
    const created = await createOAuthClient({
      db,
      principal: admin,
      input: {
        name: confidential ? 'Confidential' : 'Public',
        redirectUris: [REDIRECT, 'http://localhost:8080/cb'],
        scopes,
        confidential,
      },
    });
    const row = await findOAuthClient(db, created.client.id);
    if (!row) throw new Error('client not stored');
    return { ...created, row };
  };
  const confidential = await make(true);
  const publicClient = await make(false);
  return { accountId, adminId, email, admin, confidential, publicClient, make };
}

/** Runs the authorize step as an approving user and returns the code. */
export async function authorize(
  db: Db,
  client: OAuthClientRow,
  user: { userId: string; accountId: string },
  extra: Record<string, string> = {},
) {
  const params = new URLSearchParams({
    client_id: client.id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'read write',
    state: 'xyz',
    ...extra,
  });
  const outcome = await validateAuthorizeRequest(db, params);
  if (outcome.kind !== 'valid') throw new Error(`authorize refused: ${JSON.stringify(outcome)}`);
  return issueAuthorizationCode({ db, request: outcome.request, user });
}
