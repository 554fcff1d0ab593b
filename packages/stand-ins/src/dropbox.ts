import type { Answer, Fault } from './faults';
import { startOAuthStandIn, type OAuthContext, type OAuthStandIn } from './oauth-server';

/**
 * Dropbox on loopback, after its OAuth guide (https://developers.dropbox.com/oauth-guide) and
 * API reference: `GET /oauth2/authorize` (a refresh token only with `token_access_type=offline`),
 * `POST /oauth2/token` (the code grant with PKCE and the refresh grant, our client in HTTP Basic
 * or the body; four-hour access tokens; refresh tokens do not rotate; a revoked or unknown one is
 * `400 {"error": "invalid_grant", …}`), `POST /2/users/get_current_account` and
 * `POST /2/auth/token/revoke` (ends the whole grant). API errors are
 * `{ error_summary, error: { ".tag" } }`.
 */

export const DROPBOX_SCOPES = ['account_info.read', 'files.metadata.read', 'files.content.read'];

const apiError = (status: number, tag: string): Answer => ({
  status,
  body: { error_summary: `${tag}/`, error: { '.tag': tag } },
});

/** Dropbox's answers to faults tests switch on. */
export const dropboxFaults = {
  /** Dropbox's servers are in trouble (a 503 of the kind its guide says to retry). */
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: { status: 503, body: { error: 'temporarily_unavailable' } },
  }),
};

/** Who calls the API: the bearer's grant, or Dropbox's 401. */
function caller(ctx: OAuthContext) {
  if (ctx.bearer === 'expired') return apiError(401, 'expired_access_token');
  if (ctx.bearer === 'invalid') return apiError(401, 'invalid_access_token');
  return ctx.bearer;
}

export type DropboxStandIn = OAuthStandIn;

export function startDropboxStandIn(): Promise<DropboxStandIn> {
  return startOAuthStandIn({
    dialect: {
      accessTokenSeconds: 14_400,
      rotatesRefreshTokens: false,
      offline: (query) => query.get('token_access_type') === 'offline',
      tokenType: 'bearer',
      accessPrefix: 'sl.',
      refreshPrefix: '',
      refusedRefresh: 'refresh token is invalid or revoked',
      refusedCode: "code doesn't exist or has expired",
      codeAnswerExtra: (grant) => ({ account_id: `dbid:${grant.userId}`, uid: grant.userId }),
    },
    scopes: DROPBOX_SCOPES,
    oauthPaths: { authorize: /^\/oauth2\/authorize$/, token: /^\/oauth2\/token$/ },
    api: () => [
      [
        'POST',
        /^\/2\/users\/get_current_account$/,
        (ctx) => {
          const grant = caller(ctx);
          if ('status' in grant) return grant;
          return {
            status: 200,
            body: {
              account_id: `dbid:${grant.userId}`,
              name: { display_name: `Dropbox ${grant.userId}`, given_name: 'Dropbox' },
              email: `${grant.userId}@dropbox.test`,
            },
          };
        },
      ],
      [
        'POST',
        /^\/2\/auth\/token\/revoke$/,
        (ctx) => {
          const grant = caller(ctx);
          if ('status' in grant) return grant;
          grant.revoked = true;
          return { status: 200, body: null };
        },
      ],
    ],
    notFound: { status: 404, body: { error: 'not_found' } },
    badBody: { status: 400, body: { error: 'invalid_request' } },
  });
}
