import { readCapped } from '@chorus/api';
import { issuerFor } from '@chorus/api/oauth';
import {
  authorizationRedirect,
  issueAuthorizationCode,
  mayAuthorize,
  OAuthError,
  validateAuthorizeRequest,
  type AuthorizationRequest,
} from '@chorus/services';
import { consentToken, consentTokenMatches } from '~/server/consent';
import { getDatabase } from '~/server/database';
import { consentPage, oauthErrorPage } from '~/server/oauth-pages';
import { signInPath } from '~/server/return-path';
import { sessionPrincipal } from '~/server/session';
import { cookieReader, readSession } from '~/server/session-token';

export const dynamic = 'force-dynamic';

/** The authorize parameters we read; anything else in the query is not carried along. */
const OAUTH_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

const pick = (source: URLSearchParams) => {
  const params = new URLSearchParams();
  for (const [name, value] of source) if (OAUTH_PARAMS.includes(name)) params.append(name, value);
  return params;
};

/** Back to the client with the answer; kept out of caches and of the next page's Referer. */
const redirect = (location: string, status: 302 | 303) =>
  new Response(null, {
    status,
    headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });

const answer = (
  req: Request,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>,
  fields: Record<string, string>,
  status: 302 | 303,
) =>
  redirect(
    authorizationRedirect(request.redirectUri, {
      ...fields,
      state: request.state,
      iss: issuerFor(req),
    }),
    status,
  );

/**
 * Validates the request the way RFC 6749 §4.1.2.1 orders it: an untrustworthy client or
 * redirect URI is an error page; anything else wrong goes back to the client.
 */
async function validated(req: Request, params: URLSearchParams, status: 302 | 303) {
  const { db } = await getDatabase();
  const outcome = await validateAuthorizeRequest(db, params);
  if (outcome.kind === 'invalid_client') return { response: oauthErrorPage(400, outcome.message) };
  if (outcome.kind === 'redirect_error') {
    return { response: answer(req, outcome, outcome.error.toJSON(), status) };
  }
  return { db, request: outcome.request };
}

const denied = (description: string) => new OAuthError('access_denied', description).toJSON();

/** GET /oauth/authorize: sign-in if needed, then the consent page. */
export async function GET(req: Request) {
  const url = new URL(req.url);
  const params = pick(url.searchParams);
  const checked = await validated(req, params, 302);
  if ('response' in checked) return checked.response;
  const { request } = checked;
  const cookies = cookieReader(req.headers.get('cookie'));
  const [claims, principal] = await Promise.all([readSession(cookies), sessionPrincipal(cookies)]);
  if (!claims?.sid || !principal) {
    return redirect(signInPath(`${url.pathname}?${params}`), 302);
  }
  if (!mayAuthorize(request.client, principal)) {
    return answer(req, request, denied('This application belongs to another organisation.'), 302);
  }
  return consentPage({
    request,
    params,
    csrfToken: consentToken(claims.sid, request),
    userEmail: claims.email ?? '',
  });
}

/** POST /oauth/authorize: the consent decision, checked against the session's CSRF token. */
export async function POST(req: Request) {
  // The consent form is a few hundred bytes: read no more than a small cap.
  const text = await readCapped(req, 64 * 1024).catch(() => null);
  if (text === null) return oauthErrorPage(413, 'This request is too large.');
  const form = new URLSearchParams(text);
  const params = pick(form);
  const checked = await validated(req, params, 303);
  if ('response' in checked) return checked.response;
  const { db, request } = checked;
  const cookies = cookieReader(req.headers.get('cookie'));
  const [claims, principal] = await Promise.all([readSession(cookies), sessionPrincipal(cookies)]);
  if (!claims?.sid || !principal) {
    return oauthErrorPage(
      401,
      'Your session ended before you decided. Start again from the application.',
    );
  }
  if (!consentTokenMatches(form.get('csrf_token'), claims.sid, request)) {
    return oauthErrorPage(
      403,
      'This decision did not come from the consent page. Nothing was shared.',
    );
  }
  if (form.get('decision') !== 'allow') {
    return answer(req, request, denied('The user denied the request.'), 303);
  }
  try {
    const code = await issueAuthorizationCode({ db, request, user: principal });
    return answer(req, request, { code }, 303);
  } catch (error) {
    if (error instanceof OAuthError) return answer(req, request, error.toJSON(), 303);
    throw error;
  }
}
