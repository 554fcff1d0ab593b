import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Answer } from './faults';
import type { MastodonWorld } from './mastodon-world';
import { secret } from './mastodon-world';
import { basicCredentials, stringParam, type Params } from './params';
import type { RouteEntry } from './routes';

/**
 * Mastodon's app registration (`POST /api/v1/apps`) and its Doorkeeper OAuth 2.0 server
 * (authorization code with PKCE, client credentials, revocation), as docs.joinmastodon.org
 * describes them. The authorize step approves at once, as the stand-in's `authorizingAccount`.
 */

export interface OAuthContext {
  req: IncomingMessage;
  params: Params;
  query: URLSearchParams;
}

const SCOPE = /^(read|write|push|follow|profile|admin:(read|write))(:[a-z_]+)?$/;
const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const INVALID_CLIENT =
  'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.';

const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});

const isRedirectUri = (uri: string) => {
  if (uri === 'urn:ietf:wg:oauth:2.0:oob') return true;
  try {
    return new URL(uri).protocol.length > 1;
  } catch {
    return false;
  }
};

/** Client credentials from the body (client_secret_post) or HTTP Basic. */
const clientOf = (ctx: OAuthContext): { id?: string; secret?: string } =>
  basicCredentials(ctx.req) ?? {
    id: stringParam(ctx.params, 'client_id'),
    secret: stringParam(ctx.params, 'client_secret'),
  };

export function mastodonOAuthRoutes(
  world: MastodonWorld,
  authorizingAccount: () => string | undefined,
): RouteEntry<OAuthContext>[] {
  const codes = new Map<
    string,
    {
      clientId: string;
      redirectUri: string;
      scopes: string[];
      challenge?: string;
      accountId: string;
    }
  >();

  const registerApp = ({ params }: OAuthContext): Answer => {
    const name = stringParam(params, 'client_name');
    const raw = params.redirect_uris;
    const uris = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split('\n') : []).filter(
      (uri): uri is string => typeof uri === 'string' && uri !== '',
    );
    const scopes = (stringParam(params, 'scopes') ?? 'read').split(/[\s+]+/).filter(Boolean);
    if (!name) return { status: 422, body: { error: "Validation failed: Name can't be blank" } };
    if (uris.length === 0 || !uris.every(isRedirectUri)) {
      return {
        status: 422,
        body: { error: 'Validation failed: Redirect URI must be an absolute URI.' },
      };
    }
    if (!scopes.every((scope) => SCOPE.test(scope))) {
      return { status: 422, body: { error: 'Validation failed: Scopes must be a valid scope' } };
    }
    const app = { name, clientId: secret(), clientSecret: secret(), redirectUris: uris, scopes };
    world.apps.set(app.clientId, app);
    return {
      status: 200,
      body: {
        id: String(world.apps.size),
        name,
        website: stringParam(params, 'website') ?? null,
        scopes,
        redirect_uri: uris.join('\n'),
        redirect_uris: uris,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        client_secret_expires_at: 0,
      },
    };
  };

  const authorize = ({ query }: OAuthContext): Answer => {
    const app = world.apps.get(query.get('client_id') ?? '');
    if (!app) return oauthError(401, 'invalid_client', INVALID_CLIENT);
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) {
      return oauthError(
        400,
        'invalid_redirect_uri',
        "The requested redirect uri is malformed or doesn't match client redirect URI.",
      );
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const scopes = (query.get('scope') ?? 'read').split(/[\s+]+/).filter(Boolean);
    const method = query.get('code_challenge_method');
    const accountId = authorizingAccount();
    const refusal =
      query.get('response_type') !== 'code'
        ? 'unsupported_response_type'
        : !scopes.every((scope) => app.scopes.includes(scope))
          ? 'invalid_scope'
          : method !== null && method !== 'S256'
            ? 'invalid_request'
            : !accountId
              ? 'access_denied'
              : undefined;
    if (refusal || !accountId) {
      back.searchParams.set('error', refusal ?? 'access_denied');
    } else {
      const code = secret();
      const challenge = query.get('code_challenge') ?? undefined;
      codes.set(code, { clientId: app.clientId, redirectUri, scopes, challenge, accountId });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  };

  const token = (ctx: OAuthContext): Answer => {
    const client = clientOf(ctx);
    const app = world.apps.get(client.id ?? '');
    if (!app || app.clientSecret !== client.secret) {
      return oauthError(401, 'invalid_client', INVALID_CLIENT);
    }
    const grantType = stringParam(ctx.params, 'grant_type');
    let accountId: string | null = null;
    let scopes = (stringParam(ctx.params, 'scope') ?? 'read').split(/[\s+]+/).filter(Boolean);
    if (grantType === 'authorization_code') {
      const code = codes.get(stringParam(ctx.params, 'code') ?? '');
      const verifier = stringParam(ctx.params, 'code_verifier') ?? '';
      const verified =
        !code?.challenge ||
        createHash('sha256').update(verifier).digest('base64url') === code.challenge;
      if (
        !code ||
        code.clientId !== app.clientId ||
        code.redirectUri !== stringParam(ctx.params, 'redirect_uri') ||
        !verified
      ) {
        return oauthError(400, 'invalid_grant', INVALID_GRANT);
      }
      codes.delete(stringParam(ctx.params, 'code') ?? '');
      accountId = code.accountId;
      scopes = code.scopes;
    } else if (grantType !== 'client_credentials') {
      return oauthError(
        400,
        'unsupported_grant_type',
        'The authorization grant type is not supported by the authorization server.',
      );
    }
    const accessToken = secret();
    world.grants.set(accessToken, { accountId, scopes, revoked: false });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        scope: scopes.join(' '),
        created_at: Math.floor(Date.now() / 1000),
      },
    };
  };

  const revoke = (ctx: OAuthContext): Answer => {
    const client = clientOf(ctx);
    const app = world.apps.get(client.id ?? '');
    if (!app || app.clientSecret !== client.secret) {
      return oauthError(403, 'unauthorized_client', 'You are not authorized to revoke this token');
    }
    const grant = world.grants.get(stringParam(ctx.params, 'token') ?? '');
    if (grant) grant.revoked = true;
    return { status: 200, body: {} };
  };

  return [
    ['POST', /^\/api\/v1\/apps$/, registerApp],
    ['GET', /^\/oauth\/authorize$/, authorize],
    ['POST', /^\/oauth\/token$/, token],
    ['POST', /^\/oauth\/revoke$/, revoke],
  ];
}
