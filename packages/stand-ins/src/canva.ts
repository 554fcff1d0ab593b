import type { Answer } from './faults';
import { startOAuthStandIn, type OAuthStandIn } from './oauth-server';

/**
 * Canva's Connect API authentication on loopback
 * (https://www.canva.dev/docs/connect/api-reference/authentication/): `GET /api/oauth/authorize`,
 * `POST /rest/v1/oauth/token` (the code grant with PKCE and the refresh grant, our client in HTTP
 * Basic, as Canva recommends, or the body; four-hour access tokens; refresh tokens are single
 * use: each refresh answers a new one and retires the one presented) and the user's profile,
 * `GET /rest/v1/users/me/profile`. The platform Chorus connects to that rotates refresh tokens.
 */

export const CANVA_SCOPES = [
  'profile:read',
  'design:meta:read',
  'design:content:read',
  'asset:read',
];

const apiError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { code, message },
});

export type CanvaStandIn = OAuthStandIn;

export function startCanvaStandIn(): Promise<CanvaStandIn> {
  return startOAuthStandIn({
    dialect: {
      accessTokenSeconds: 14_400,
      rotatesRefreshTokens: true,
      offline: () => true,
      tokenType: 'Bearer',
      accessPrefix: 'canva-at-',
      refreshPrefix: 'canva-rt-',
      refusedRefresh: 'The refresh token is invalid or has already been used.',
      refusedCode: 'The authorization code is invalid or expired.',
    },
    scopes: CANVA_SCOPES,
    oauthPaths: { authorize: /^\/api\/oauth\/authorize$/, token: /^\/rest\/v1\/oauth\/token$/ },
    api: () => [
      [
        'GET',
        /^\/rest\/v1\/users\/me\/profile$/,
        ({ bearer }) =>
          typeof bearer === 'string'
            ? apiError(401, 'invalid_access_token', 'Access token is invalid or expired.')
            : { status: 200, body: { profile: { display_name: `Canva ${bearer.userId}` } } },
      ],
    ],
    notFound: apiError(404, 'not_found', 'Not found.'),
    badBody: apiError(400, 'bad_request_body', 'The request body is invalid.'),
  });
}
