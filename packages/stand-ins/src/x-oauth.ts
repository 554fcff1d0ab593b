import { createHash } from 'node:crypto';
import type { Answer } from './faults';
import { basicCredentials, stringParam } from './params';
import type { RouteEntry } from './routes';
import type { XContext } from './x-api';
import { xSecret, type XWorld } from './x-world';

/**
 * X's OAuth 2.0 (docs.x.com/fundamentals/authentication/oauth-2-0): authorization code with
 * PKCE at `/i/oauth2/authorize` (approved at once, as the stand-in's first user), tokens at
 * `POST /2/oauth2/token` with confidential clients in HTTP Basic, refresh tokens that work
 * once (each refresh answers a new one), and `POST /2/oauth2/revoke`.
 */

export interface XClient {
  clientId: string;
  /** Null for a public client (no secret, `client_id` in the body). */
  clientSecret: string | null;
}

const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});
const INVALID_TOKEN = () =>
  oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');

/** The client a token request authenticates as, or X's refusal. */
function clientOf(ctx: XContext, clients: Map<string, XClient>): XClient | Answer {
  const basic = basicCredentials(ctx.req);
  const client = clients.get(basic?.id ?? stringParam(ctx.params, 'client_id') ?? '');
  const authenticated = basic
    ? client?.clientSecret === basic.secret
    : client?.clientSecret === null;
  return client && authenticated
    ? client
    : oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
}

export function xOAuthRoutes(
  world: XWorld,
  clients: Map<string, XClient>,
  approver: () => string | undefined,
): RouteEntry<XContext>[] {
  const codes = new Map<
    string,
    {
      clientId: string;
      redirectUri: string;
      scopes: string[];
      challenge: string;
      method: string;
      userId: string;
    }
  >();
  const isClient = (value: XClient | Answer): value is XClient => 'clientId' in value;

  const authorize = ({ query }: XContext): Answer => {
    const client = clients.get(query.get('client_id') ?? '');
    const redirectUri = query.get('redirect_uri') ?? '';
    const challenge = query.get('code_challenge');
    const userId = approver();
    if (!client || !/^https?:\/\//.test(redirectUri) || !challenge || !userId) {
      return oauthError(
        400,
        'invalid_request',
        'Value passed for the authorization request was invalid.',
      );
    }
    const back = new URL(redirectUri);
    back.searchParams.set('state', query.get('state') ?? '');
    if (query.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
    } else {
      const code = xSecret();
      codes.set(code, {
        clientId: client.clientId,
        redirectUri,
        scopes: (query.get('scope') ?? '').split(/[\s+]+/).filter(Boolean),
        challenge,
        method: query.get('code_challenge_method') ?? 'plain',
        userId,
      });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  };

  const token = (ctx: XContext): Answer => {
    const client = clientOf(ctx, clients);
    if (!isClient(client)) return client;
    const grantType = stringParam(ctx.params, 'grant_type');
    if (grantType === 'refresh_token') {
      const presented = stringParam(ctx.params, 'refresh_token') ?? '';
      const grant = world.refreshTokens.get(presented);
      if (!grant || grant.revoked || grant.clientId !== client.clientId) return INVALID_TOKEN();
      world.refreshTokens.delete(presented);
      return { status: 200, body: world.issue(grant.userId, grant.scopes, client.clientId) };
    }
    if (grantType === 'authorization_code') {
      const code = codes.get(stringParam(ctx.params, 'code') ?? '');
      const verifier = stringParam(ctx.params, 'code_verifier') ?? '';
      const expected =
        code?.method === 'S256'
          ? createHash('sha256').update(verifier).digest('base64url')
          : verifier;
      if (
        !code ||
        code.clientId !== client.clientId ||
        code.redirectUri !== stringParam(ctx.params, 'redirect_uri') ||
        code.challenge !== expected
      ) {
        return oauthError(
          400,
          'invalid_request',
          'Value passed for the authorization code was invalid.',
        );
      }
      codes.delete(stringParam(ctx.params, 'code') ?? '');
      return { status: 200, body: world.issue(code.userId, code.scopes, client.clientId) };
    }
    return oauthError(400, 'unsupported_grant_type', 'The grant_type is not supported.');
  };

  const revoke = (ctx: XContext): Answer => {
    const client = clientOf(ctx, clients);
    if (!isClient(client)) return client;
    const presented = stringParam(ctx.params, 'token') ?? '';
    const grant = world.grants.get(presented) ?? world.refreshTokens.get(presented);
    if (grant) grant.revoked = true;
    return { status: 200, body: { revoked: true } };
  };

  return [
    ['GET', /^\/i\/oauth2\/authorize$/, authorize],
    ['POST', /^\/2\/oauth2\/token$/, token],
    ['POST', /^\/2\/oauth2\/revoke$/, revoke],
  ];
}
