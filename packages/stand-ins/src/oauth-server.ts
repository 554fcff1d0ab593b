import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { answering, FaultSwitches, pathOf, type Answer } from './faults';
import { startStandIn, type StandIn } from './http-kit';
import { basicCredentials, bearerToken, readParams, stringParam, type Params } from './params';
import { findRoute, type RouteEntry } from './routes';

/**
 * What the stand-ins of the platforms Chorus connects to but does not publish to (Dropbox,
 * Google, Canva, Figma) share: an OAuth 2.0 server (RFC 6749) with the authorization code
 * grant and PKCE (approved at once, as the stand-in's user), the refresh grant (RFC 6749 §6),
 * access tokens that expire, and grants a test revokes. Each platform says how it differs
 * (`OAuthDialect`): token lifetimes, whether refresh tokens rotate, its words for a refusal.
 */

export interface OAuthDialect {
  /** The `expires_in` of every access token, in seconds. */
  accessTokenSeconds: number;
  /** A refresh answers a new refresh token and retires the one presented. */
  rotatesRefreshTokens: boolean;
  /** The authorize step's query asks for a refresh token (offline access). */
  offline(query: URLSearchParams): boolean;
  /** `token_type` as the platform spells it. */
  tokenType: string;
  /** How the platform's tokens start (`sl.`, `ya29.`), so a test can tell them apart. */
  accessPrefix: string;
  refreshPrefix: string;
  /** `error_description` of a refused refresh token (RFC 6749 §5.2 `invalid_grant`). */
  refusedRefresh: string;
  /** `error_description` of a refused code. */
  refusedCode: string;
  /** What else the code grant's answer holds (Dropbox's `account_id`). */
  codeAnswerExtra?(grant: OAuthGrant): Record<string, unknown>;
}

export interface OAuthGrant {
  id: string;
  userId: string;
  scopes: string[];
  revoked: boolean;
  /** The refresh token that works now; none without offline access. */
  refreshToken: string | null;
}

export interface OAuthContext {
  req: IncomingMessage;
  params: Params;
  query: URLSearchParams;
  /** The grant of a valid bearer token, or why there is none. */
  bearer: OAuthGrant | 'expired' | 'invalid';
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

const secret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});

/** The grants of one stand-in: who approved what, and the tokens each holds. */
export class OAuthGrants {
  private readonly grants = new Map<string, OAuthGrant>();
  private readonly access = new Map<string, { grantId: string; expiresAt: number }>();
  /** The refresh tokens that work: a rotation removes the one it replaces. */
  private readonly refresh = new Map<string, string>();

  constructor(private readonly dialect: OAuthDialect) {}

  /** A grant and its first tokens, as a completed authorization leaves them. */
  grant(userId: string, scopes: string[], offline = true) {
    const grant: OAuthGrant = {
      id: secret(''),
      userId,
      scopes,
      revoked: false,
      refreshToken: null,
    };
    this.grants.set(grant.id, grant);
    if (offline) this.rotate(grant);
    return { grant, ...this.accessToken(grant) };
  }

  /** A new access token for the grant, with the platform's answer of it. */
  accessToken(grant: OAuthGrant) {
    const token = secret(this.dialect.accessPrefix);
    const expiresIn = this.dialect.accessTokenSeconds;
    this.access.set(token, { grantId: grant.id, expiresAt: Date.now() + expiresIn * 1000 });
    return { token, expiresIn };
  }

  private rotate(grant: OAuthGrant) {
    if (grant.refreshToken) this.refresh.delete(grant.refreshToken);
    grant.refreshToken = secret(this.dialect.refreshPrefix);
    this.refresh.set(grant.refreshToken, grant.id);
  }

  /** The refresh grant: a new access token (and refresh token, where the platform rotates). */
  refreshed(refreshToken: string): { grant: OAuthGrant; token: string; rotated: boolean } | null {
    const grant = this.grants.get(this.refresh.get(refreshToken) ?? '');
    if (!grant || grant.revoked) return null;
    if (this.dialect.rotatesRefreshTokens) this.rotate(grant);
    return {
      grant,
      token: this.accessToken(grant).token,
      rotated: this.dialect.rotatesRefreshTokens,
    };
  }

  /** The grant a bearer token acts for, `expired` past its lifetime, else `invalid`. */
  bearer(token: string | undefined): OAuthContext['bearer'] {
    const held = token ? this.access.get(token) : undefined;
    const grant = held ? this.grants.get(held.grantId) : undefined;
    if (!held || !grant || grant.revoked) return 'invalid';
    return held.expiresAt > Date.now() ? grant : 'expired';
  }

  /** The access token has expired; its grant's refresh token still works. */
  expire(token: string) {
    const held = this.access.get(token);
    if (held) held.expiresAt = Date.now() - 1;
  }

  /** The user withdrew the app's access: every token of the grant holding `token` stops working. */
  revoke(token: string) {
    const id = this.access.get(token)?.grantId ?? this.refresh.get(token);
    const grant = id ? this.grants.get(id) : undefined;
    if (grant) grant.revoked = true;
    return grant !== undefined;
  }
}

/** The client a token request authenticates as: HTTP Basic or the body (RFC 6749 §2.3.1). */
function clientOf(ctx: OAuthContext) {
  const basic = basicCredentials(ctx.req);
  return basic
    ? { id: basic.id, secret: basic.secret }
    : {
        id: stringParam(ctx.params, 'client_id') ?? '',
        secret: stringParam(ctx.params, 'client_secret') ?? '',
      };
}

/**
 * Where a platform serves the grants: `refresh`, for a platform whose refresh grant has an
 * endpoint of its own (Figma's), which then takes the refresh token alone, `grant_type` or
 * not, and whose token endpoint serves the code grant only.
 */
export interface OAuthPaths {
  authorize: RegExp;
  token: RegExp;
  refresh?: RegExp;
}

/** The authorize, token (and refresh) endpoints of `paths`, in the platform's dialect. */
export function oauthRoutes(
  grants: OAuthGrants,
  dialect: OAuthDialect,
  client: OAuthClient,
  approver: () => string,
  paths: OAuthPaths,
): RouteEntry<OAuthContext>[] {
  const codes = new Map<
    string,
    { redirectUri: string; challenge: string; scopes: string[]; offline: boolean }
  >();

  const authorize = ({ query }: OAuthContext): Answer => {
    const redirectUri = query.get('redirect_uri') ?? '';
    if (query.get('client_id') !== client.clientId || !/^https?:\/\//.test(redirectUri)) {
      // Shown to the person, never redirected (RFC 6749 §4.1.2.1).
      return oauthError(400, 'invalid_request', 'Invalid client_id or redirect_uri.');
    }
    const back = new URL(redirectUri);
    back.searchParams.set('state', query.get('state') ?? '');
    const challenge = query.get('code_challenge');
    if (query.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
    } else if (!challenge || query.get('code_challenge_method') !== 'S256') {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = secret('');
      codes.set(code, {
        redirectUri,
        challenge,
        scopes: (query.get('scope') ?? '').split(' ').filter(Boolean),
        offline: dialect.offline(query),
      });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  };

  const tokenAnswer = (token: string, grant: OAuthGrant, extra: Record<string, unknown>) => ({
    status: 200,
    body: {
      access_token: token,
      token_type: dialect.tokenType,
      expires_in: dialect.accessTokenSeconds,
      scope: grant.scopes.join(' '),
      ...extra,
    },
  });

  const unknownClient = (ctx: OAuthContext) => {
    const presented = clientOf(ctx);
    return presented.id !== client.clientId || presented.secret !== client.clientSecret
      ? oauthError(401, 'invalid_client', 'Invalid client_id or client_secret.')
      : undefined;
  };

  const refresh = (ctx: OAuthContext): Answer => {
    const refreshed = grants.refreshed(stringParam(ctx.params, 'refresh_token') ?? '');
    if (!refreshed) return oauthError(400, 'invalid_grant', dialect.refusedRefresh);
    const { grant, rotated } = refreshed;
    return tokenAnswer(
      refreshed.token,
      grant,
      rotated ? { refresh_token: grant.refreshToken } : {},
    );
  };

  const token = (ctx: OAuthContext): Answer => {
    const refused = unknownClient(ctx);
    if (refused) return refused;
    const grantType = stringParam(ctx.params, 'grant_type');
    if (grantType === 'refresh_token' && !paths.refresh) return refresh(ctx);
    if (grantType === 'authorization_code') {
      const key = stringParam(ctx.params, 'code') ?? '';
      const code = codes.get(key);
      codes.delete(key);
      const verifier = stringParam(ctx.params, 'code_verifier') ?? '';
      if (
        !code ||
        code.redirectUri !== stringParam(ctx.params, 'redirect_uri') ||
        code.challenge !== createHash('sha256').update(verifier).digest('base64url')
      ) {
        return oauthError(400, 'invalid_grant', dialect.refusedCode);
      }
      const issued = grants.grant(approver(), code.scopes, code.offline);
      const { grant } = issued;
      return tokenAnswer(issued.token, grant, {
        ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
        ...dialect.codeAnswerExtra?.(grant),
      });
    }
    return oauthError(400, 'unsupported_grant_type', 'grant_type is not supported.');
  };

  const routes: RouteEntry<OAuthContext>[] = [
    ['GET', paths.authorize, authorize],
    ['POST', paths.token, token],
  ];
  if (paths.refresh)
    routes.push(['POST', paths.refresh, (ctx) => unknownClient(ctx) ?? refresh(ctx)]);
  return routes;
}

export interface OAuthStandIn extends StandIn {
  client: OAuthClient;
  faults: FaultSwitches;
  grants: OAuthGrants;
  /** A user who approved the app, with the tokens of the grant (a refresh token unless `offline: false`). */
  addUser(opts?: { offline?: boolean }): {
    userId: string;
    token: string;
    refreshToken: string | null;
  };
  /** Who approves at the authorize endpoint (the last user added by default). */
  authorizeAs(userId: string): void;
  /** The access token has expired: the API answers 401 until the grant is refreshed. */
  expire(token: string): void;
  /** The user withdrew the app's access: the grant's tokens, the refresh token too, stop working. */
  revoke(token: string): void;
}

/** Starts a platform's stand-in: its OAuth routes and its API's, under fault switches. */
export async function startOAuthStandIn(opts: {
  dialect: OAuthDialect;
  scopes: string[];
  oauthPaths: OAuthPaths;
  /** The API's routes, given the grants (a route reads the caller's from `ctx.bearer`). */
  api(grants: OAuthGrants): RouteEntry<OAuthContext>[];
  notFound: Answer;
  /** A body the platform cannot read. */
  badBody: Answer;
}): Promise<OAuthStandIn> {
  const faults = new FaultSwitches();
  const grants = new OAuthGrants(opts.dialect);
  const client = { clientId: secret('client-'), clientSecret: secret('') };
  let users = 0;
  let approver = '';
  const routes = [
    ...oauthRoutes(grants, opts.dialect, client, () => approver, opts.oauthPaths),
    ...opts.api(grants),
  ];
  const server = await startStandIn(
    answering(faults, async (req, body) => {
      const params = await readParams(req, body);
      if (!params) return opts.badBody;
      const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
      const handler = findRoute(routes, req.method ?? 'GET', pathOf(req));
      if (!handler) return opts.notFound;
      return handler({ req, params, query, bearer: grants.bearer(bearerToken(req)) });
    }),
  );
  return {
    ...server,
    client,
    faults,
    grants,
    addUser({ offline = true } = {}) {
      users += 1;
      const userId = `user-${users}`;
      approver = userId;
      const issued = grants.grant(userId, opts.scopes, offline);
      return { userId, token: issued.token, refreshToken: issued.grant.refreshToken };
    },
    authorizeAs(userId) {
      approver = userId;
    },
    expire: (token) => grants.expire(token),
    revoke: (token) => void grants.revoke(token),
  };
}
