import type { Answer } from './faults';
import type { LinkedInContext } from './linkedin-errors';
import { token } from './linkedin-world';
import type { RouteEntry } from './routes';

/**
 * LinkedIn's OAuth 2.0 (https://www.linkedin.com/oauth/v2/…): the authorization code flow
 * (the approving member is chosen by the test), the token endpoint for codes and refresh
 * tokens (`{ access_token, expires_in, refresh_token, refresh_token_expires_in, scope }`), and
 * revocation. Errors are `{ error, error_description }`.
 */

export interface LinkedInApp {
  clientId: string;
  clientSecret: string;
}

const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
});

const form = (ctx: LinkedInContext) =>
  (ctx.req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(ctx.raw.toString('utf8'))
    : new URLSearchParams();

export function linkedinOAuthRoutes(
  app: LinkedInApp,
  approver: () => { memberId: string; scopes: string[] },
): RouteEntry<LinkedInContext>[] {
  /** Authorization codes → who approved, with which scopes, for which redirect URI. */
  const codes = new Map<string, { memberId: string; scopes: string[]; redirectUri: string }>();

  function issue(ctx: LinkedInContext, memberId: string, scopes: string[]): Answer {
    const { token: access, refreshToken } = ctx.world.grant(memberId, scopes);
    return {
      status: 200,
      body: {
        access_token: access,
        expires_in: 5_184_000,
        refresh_token: refreshToken,
        refresh_token_expires_in: 31_536_000,
        scope: scopes.join(','),
      },
    };
  }

  function exchange(ctx: LinkedInContext): Answer {
    const params = form(ctx);
    if (
      params.get('client_id') !== app.clientId ||
      params.get('client_secret') !== app.clientSecret
    ) {
      return oauthError(401, 'invalid_client', 'Client authentication failed');
    }
    const grantType = params.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = codes.get(params.get('code') ?? '');
      codes.delete(params.get('code') ?? '');
      if (!code || code.redirectUri !== params.get('redirect_uri')) {
        return oauthError(
          400,
          'invalid_request',
          'Unable to retrieve access token: authorization code not found',
        );
      }
      return issue(ctx, code.memberId, code.scopes);
    }
    if (grantType === 'refresh_token') {
      const previous = ctx.world.refreshTokens.get(params.get('refresh_token') ?? '');
      const grant = previous ? ctx.world.grants.get(previous) : undefined;
      if (!grant || grant.revoked) {
        return oauthError(
          400,
          'invalid_request',
          'The provided authorization grant or refresh token is invalid, expired or revoked',
        );
      }
      return issue(ctx, grant.memberId, grant.scopes);
    }
    return oauthError(400, 'unsupported_grant_type', `Unsupported grant type ${grantType ?? ''}`);
  }

  return [
    [
      'GET',
      /^\/oauth\/v2\/authorization$/,
      (ctx) => {
        const query = ctx.url.searchParams;
        const redirectUri = query.get('redirect_uri') ?? '';
        if (query.get('client_id') !== app.clientId || !URL.canParse(redirectUri)) {
          return oauthError(400, 'invalid_request', 'Invalid client_id or redirect_uri');
        }
        const { memberId, scopes } = approver();
        const requested = (query.get('scope') ?? '').split(/[ ,]+/).filter(Boolean);
        const code = token();
        codes.set(code, {
          memberId,
          scopes: requested.filter((s) => scopes.includes(s)),
          redirectUri,
        });
        const location = new URL(redirectUri);
        location.searchParams.set('code', code);
        if (query.get('state')) location.searchParams.set('state', query.get('state') ?? '');
        return { status: 302, headers: { location: location.toString() } };
      },
    ],
    ['POST', /^\/oauth\/v2\/accessToken$/, exchange],
    [
      'POST',
      /^\/oauth\/v2\/revoke$/,
      (ctx) => {
        const grant = ctx.world.grants.get(form(ctx).get('token') ?? '');
        if (grant) grant.revoked = true;
        return { status: 200 };
      },
    ],
  ];
}
