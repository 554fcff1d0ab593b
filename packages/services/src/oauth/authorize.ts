import { generateOAuthSecret } from '@chorus/auth';
import { oauthAuthorizationCodes, type Db } from '@chorus/db';
import type { Scope } from '@chorus/validators';
import { findOAuthClient, type OAuthClientRow } from './clients';
import { OAuthError } from './errors';
import { CODE_TTL_MS } from './lifetimes';
import { parseScope } from './scopes';

/** A valid authorization request, ready for the user's consent. */
export interface AuthorizationRequest {
  client: OAuthClientRow;
  redirectUri: string;
  redirectUriGiven: boolean;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string | undefined;
}

/**
 * What the authorize endpoint does with a request:
 * - `invalid_client`: shown to the user as an error page, never redirected, because the
 *   client or its redirect URI cannot be trusted (RFC 6749 §4.1.2.1, docs/security.md);
 * - `redirect_error`: sent back to the client's registered redirect URI with `error`;
 * - `valid`: ready for the consent page.
 */
export type AuthorizeOutcome =
  | { kind: 'invalid_client'; message: string }
  | { kind: 'redirect_error'; redirectUri: string; error: OAuthError; state: string | undefined }
  | { kind: 'valid'; request: AuthorizationRequest };

/** Parameters longer than this are refused: nothing legitimate needs more. */
const MAX_PARAM_LENGTH = 2048;
const SINGLE = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];
/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export async function validateAuthorizeRequest(
  db: Db,
  params: URLSearchParams,
): Promise<AuthorizeOutcome> {
  const page = (message: string): AuthorizeOutcome => ({ kind: 'invalid_client', message });
  // PostgreSQL text cannot hold U+0000; no real request carries one.
  if ([...params].some(([name, value]) => `${name}${value}`.includes('\0'))) {
    return page('The request is malformed: it contains a NUL character.');
  }
  const clientIds = params.getAll('client_id');
  if (clientIds.length !== 1 || !clientIds[0]) {
    return page('The request names no application (client_id), or names more than one.');
  }
  const client = await findOAuthClient(db, clientIds[0]);
  if (!client) return page('This application is not registered here.');

  const redirectUris = params.getAll('redirect_uri');
  if (redirectUris.length > 1) return page('The request has more than one redirect_uri.');
  const given = redirectUris[0];
  let redirectUri: string;
  if (given !== undefined) {
    if (!client.redirectUris.includes(given)) {
      return page('The redirect_uri is not one this application registered.');
    }
    redirectUri = given;
  } else {
    // RFC 6749 §3.1.2.3: it may be left out only when a single one is registered.
    const [only] = client.redirectUris;
    if (client.redirectUris.length !== 1 || only === undefined) {
      return page('The request has no redirect_uri, and this application registered several.');
    }
    redirectUri = only;
  }

  const state = params.get('state') ?? undefined;
  const fail = (error: OAuthError): AuthorizeOutcome => ({
    kind: 'redirect_error',
    redirectUri,
    error,
    state,
  });
  const invalid = (description: string) => fail(new OAuthError('invalid_request', description));

  for (const name of SINGLE) {
    if (params.getAll(name).length > 1) return invalid(`The ${name} parameter is repeated.`);
  }
  for (const [name, value] of params) {
    if (value.length > MAX_PARAM_LENGTH) return invalid(`The ${name} parameter is too long.`);
  }
  const responseType = params.get('response_type');
  if (!responseType) return invalid('The response_type parameter is required.');
  if (responseType !== 'code') {
    return fail(
      new OAuthError('unsupported_response_type', 'Only response_type=code is supported.'),
    );
  }
  let scopes: Scope[];
  try {
    scopes = parseScope(params.get('scope') ?? undefined, client.scopes);
  } catch (error) {
    if (error instanceof OAuthError) return fail(error);
    throw error;
  }

  const challenge = params.get('code_challenge') ?? undefined;
  const method = params.get('code_challenge_method') ?? undefined;
  if (method !== undefined && method !== 'S256') {
    return invalid('Only code_challenge_method=S256 is supported.');
  }
  if (challenge !== undefined && method === undefined) {
    // Without a method RFC 7636 means "plain", which we do not accept.
    return invalid('code_challenge_method=S256 is required with a code_challenge.');
  }
  if (challenge === undefined && method !== undefined) {
    return invalid('code_challenge is required with a code_challenge_method.');
  }
  if (challenge === undefined && !client.confidential) {
    return invalid('PKCE (code_challenge with S256) is required for public clients.');
  }
  if (challenge !== undefined && !S256_CHALLENGE.test(challenge)) {
    return invalid('code_challenge must be a base64url SHA-256 digest (43 characters).');
  }

  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      redirectUriGiven: given !== undefined,
      scopes,
      state,
      codeChallenge: challenge,
    },
  };
}

/** Who may approve a client: only users of the account that registered it (docs/oauth.md). */
export const mayAuthorize = (client: OAuthClientRow, user: { accountId: string }) =>
  client.accountId === user.accountId;

/** The user approved: a single-use code bound to everything the token request must repeat. */
export async function issueAuthorizationCode(opts: {
  db: Db;
  request: AuthorizationRequest;
  user: { userId: string; accountId: string };
}): Promise<string> {
  const { db, request, user } = opts;
  if (!mayAuthorize(request.client, user)) {
    throw new OAuthError('access_denied', 'This application belongs to another organisation.');
  }
  const code = generateOAuthSecret('code');
  await db.insert(oauthAuthorizationCodes).values({
    codeHash: code.hash,
    clientId: request.client.id,
    accountId: user.accountId,
    userId: user.userId,
    redirectUri: request.redirectUri,
    redirectUriGiven: request.redirectUriGiven,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return code.secret;
}

/**
 * The redirect URI with the answer in its query (RFC 6749 §4.1.2), its own query kept.
 * `iss` names us (RFC 9207), so a client talking to several servers cannot be mixed up.
 */
export function authorizationRedirect(
  redirectUri: string,
  answer: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}
