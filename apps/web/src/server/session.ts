import { authenticateSession, type Principal } from '@chorus/auth';
import { decode, type JWT } from 'next-auth/jwt';
// The session's claims (sid, gen) are declared with the next-auth options; types only.
import type {} from './auth';
import { authSecret } from './auth-secret';
import { getDatabase } from './database';

/** next-auth's session cookie, with the `__Secure-` prefix when served over https. */
const COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

type CookieReader = (name: string) => string | undefined;

/** Reads cookies from a raw `Cookie` header (route handlers receive a plain Request). */
export function cookieReader(header: string | null): CookieReader {
  const jar = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!jar.has(name)) jar.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return (name) => jar.get(name);
}

/** The dashboard session's claims, or null when absent, forged or expired. */
export async function readSession(cookies: CookieReader): Promise<JWT | null> {
  for (const name of COOKIE_NAMES) {
    const token = cookies(name);
    if (!token) continue;
    try {
      const claims = await decode({ token, secret: authSecret() });
      if (claims?.sub && claims.sid) return claims;
    } catch {
      // A cookie that does not decrypt under our secret is no session.
    }
  }
  return null;
}

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
