import { authenticateSession, type Principal } from '@chorus/auth';
import { getDatabase } from './database';
import { cookieReader, readSession, type CookieReader } from './session-token';

/** The signed-in user as a principal: every scope, the role read fresh from the database. */
export async function sessionPrincipal(cookies: CookieReader): Promise<Principal | null> {
  const claims = await readSession(cookies);
  if (!claims?.sub || !claims.sid || typeof claims.gen !== 'number') return null;
  const { db } = await getDatabase();
  return authenticateSession(db, {
    userId: claims.sub,
    sessionId: claims.sid,
    generation: claims.gen,
  });
}

/**
 * A session cookie counts only on requests from our own pages: a browser says where a
 * request comes from (Sec-Fetch-Site, Origin), and a cross-site page must not borrow the
 * cookie to call procedures (CSRF). Bearer tokens are not sent by browsers on their own.
 */
function sameOrigin(req: Request): boolean {
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.get('origin');
  if (!origin) return req.method === 'GET';
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  return URL.canParse(origin) && new URL(origin).host === host;
}

/** The dashboard session of a same-origin request, for the doors that accept one. */
export async function requestSessionPrincipal(req: Request): Promise<Principal | null> {
  if (!sameOrigin(req)) return null;
  return sessionPrincipal(cookieReader(req.headers.get('cookie')));
}
