import type { Answer, Fault } from './faults';
import { startOAuthStandIn, type OAuthContext, type OAuthStandIn } from './oauth-server';
import { stringParam } from './params';

/**
 * Google's OAuth 2.0 for web server apps on loopback
 * (https://developers.google.com/identity/protocols/oauth2/web-server), as Google Drive and
 * YouTube connect through it: `GET /o/oauth2/v2/auth` (a refresh token only with
 * `access_type=offline`), `POST /token` (the code grant with PKCE and the refresh grant;
 * one-hour access tokens, `expires_in: 3599`; refresh tokens do not rotate; a revoked one is
 * `400 {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}`),
 * `POST /revoke` (either token ends the grant) and Drive's `GET /drive/v3/about`. API errors are
 * `{ error: { code, message, status } }`.
 */

export const GOOGLE_DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive.readonly'];

const apiError = (code: number, message: string, status: string): Answer => ({
  status: code,
  body: { error: { code, message, status } },
});

/** Google's answers to faults tests switch on. */
export const googleFaults = {
  /** The token endpoint's server error, which Google's guide says to retry with backoff. */
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: {
      status: 500,
      body: { error: 'internal_failure', error_description: 'Backend Error' },
    },
  }),
};

function caller(ctx: OAuthContext) {
  if (typeof ctx.bearer === 'string') {
    return apiError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'UNAUTHENTICATED',
    );
  }
  return ctx.bearer;
}

export type GoogleStandIn = OAuthStandIn;

export function startGoogleStandIn(): Promise<GoogleStandIn> {
  return startOAuthStandIn({
    dialect: {
      accessTokenSeconds: 3_599,
      rotatesRefreshTokens: false,
      offline: (query) => query.get('access_type') === 'offline',
      tokenType: 'Bearer',
      accessPrefix: 'ya29.',
      refreshPrefix: '1//',
      refusedRefresh: 'Token has been expired or revoked.',
      refusedCode: 'Malformed auth code.',
    },
    scopes: GOOGLE_DRIVE_SCOPES,
    oauthPaths: { authorize: /^\/o\/oauth2\/v2\/auth$/, token: /^\/token$/ },
    api: (grants) => [
      [
        'GET',
        /^\/drive\/v3\/about$/,
        (ctx) => {
          const grant = caller(ctx);
          if ('status' in grant) return grant;
          return {
            status: 200,
            body: {
              user: {
                kind: 'drive#user',
                displayName: `Google ${grant.userId}`,
                emailAddress: `${grant.userId}@gmail.test`,
              },
            },
          };
        },
      ],
      [
        'POST',
        /^\/revoke$/,
        (ctx) => {
          const token = stringParam(ctx.params, 'token') ?? ctx.query.get('token') ?? '';
          return grants.revoke(token)
            ? { status: 200, body: {} }
            : { status: 400, body: { error: 'invalid_token', error_description: 'Bad Request' } };
        },
      ],
    ],
    notFound: apiError(404, 'Not Found', 'NOT_FOUND'),
    badBody: { status: 400, body: { error: 'invalid_request' } },
  });
}
