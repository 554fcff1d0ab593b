import type { Answer } from './faults';
import { startOAuthStandIn, type OAuthStandIn } from './oauth-server';

/**
 * Figma's OAuth on loopback, after Figma's OpenAPI description of its REST API
 * (github.com/figma/rest-api-spec, `components.securitySchemes.OAuth2`): `GET /oauth` (the
 * authorize step), `POST /v1/oauth/token` (the code grant, with PKCE) and, an endpoint of its
 * own, the refresh grant at `POST /v1/oauth/refresh` (its `refreshUrl`), which answers a new
 * access token and its `expires_in` and no new refresh token (the one held stays good). Our
 * client in HTTP Basic, as Figma's OAuth migration guide asks, or the body. The token endpoint
 * serves the code grant only: a refresh sent there is `unsupported_grant_type`. The user's
 * profile is `GET /v1/me` (`id`, `handle`, `img_url`); an API error is `{ status, err }`.
 */

export const FIGMA_SCOPES = ['current_user:read', 'file_content:read'];

const apiError = (status: number, err: string): Answer => ({ status, body: { status, err } });

export type FigmaStandIn = OAuthStandIn;

export function startFigmaStandIn(): Promise<FigmaStandIn> {
  return startOAuthStandIn({
    dialect: {
      // Long-lived (90 days); a test that refreshes stores the expiry it needs.
      accessTokenSeconds: 7_776_000,
      rotatesRefreshTokens: false,
      offline: () => true,
      tokenType: 'bearer',
      accessPrefix: 'figu_',
      refreshPrefix: 'figur_',
      refusedRefresh: 'Invalid refresh token.',
      refusedCode: 'Invalid code.',
    },
    scopes: FIGMA_SCOPES,
    oauthPaths: {
      authorize: /^\/oauth$/,
      token: /^\/v1\/oauth\/token$/,
      refresh: /^\/v1\/oauth\/refresh$/,
    },
    api: () => [
      [
        'GET',
        /^\/v1\/me$/,
        ({ bearer }) =>
          typeof bearer === 'string'
            ? apiError(403, 'Invalid token')
            : {
                status: 200,
                body: {
                  id: bearer.userId,
                  handle: `Figma ${bearer.userId}`,
                  img_url: 'https://www.figma.com/img/user.png',
                },
              },
      ],
    ],
    notFound: apiError(404, 'Not found'),
    badBody: apiError(400, 'Invalid request body'),
  });
}
