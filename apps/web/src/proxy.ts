import { hstsHeader } from '@chorus/api/security-headers';
import { NextResponse, type NextRequest } from 'next/server';
import { signInPath } from './server/return-path';
import { cookieReader, readSession } from './server/session-token';

/**
 * The pages' Content-Security-Policy: scripts only from this origin and Next's own inline
 * scripts carrying this response's nonce; no framing (clickjacking); forms post here only.
 * Styles may be inline (React style attributes). Images also from https: the channels' profile
 * pictures live on the networks. The dev server needs eval for its tooling.
 */
function pagePolicy(nonce: string): string {
  const dev = process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every page gets a fresh nonce and its policy (Next puts the nonce on its scripts when the
 * request carries the policy). /oauth/ and /docs answer with policies of their own; the API
 * sets its headers in the REST door.
 *
 * A dashboard page asked for without a session is redirected here, before Next renders: a
 * page's own redirect comes after the loading state has been streamed, as a 200 a browser
 * follows but a client reading status codes does not. A session this cannot rule out (its
 * cookie decrypts, but it was signed out or its user removed) is still sent to sign in by
 * the page, which looks it up in the database; so is a server action's POST, whose redirect
 * Next's client reads from the action's own answer.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const signedOut =
    (request.method === 'GET' || request.method === 'HEAD') &&
    (pathname === '/dashboard' || pathname.startsWith('/dashboard/')) &&
    !(await readSession(cookieReader(request.headers.get('cookie'))));
  const ownPolicy = pathname.startsWith('/oauth/') || pathname === '/docs';
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = pagePolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  if (!ownPolicy) requestHeaders.set('Content-Security-Policy', policy);
  const response = signedOut
    ? NextResponse.redirect(new URL(signInPath(`${pathname}${search}`), request.url), 307)
    : NextResponse.next({ request: { headers: requestHeaders } });
  if (!ownPolicy) {
    response.headers.set('Content-Security-Policy', policy);
    response.headers.set('X-Frame-Options', 'DENY');
  }
  response.headers.set('X-Content-Type-Options', 'nosniff');
  // /oauth/ pages carry the authorization request (state, code_challenge) in their URL and
  // form: they send no Referer at all (docs/oauth.md). This header would replace theirs.
  const referrer = pathname.startsWith('/oauth/')
    ? 'no-referrer'
    : 'strict-origin-when-cross-origin';
  response.headers.set('Referrer-Policy', referrer);
  const transport = hstsHeader();
  if (transport) response.headers.set('Strict-Transport-Security', transport);
  return response;
}

export const config = {
  // Not the API (the REST door sets its headers), Next's hashed assets or public files.
  matcher: ['/((?!api/|_next/static|_next/image|integrations/|favicon.ico).*)'],
};
