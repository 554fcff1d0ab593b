/**
 * The dashboard session's cookie, read without the database: what the pages' proxy
 * (src/proxy.ts) can check before rendering, and what the principal is looked up from.
 */
import { decode, type JWT } from 'next-auth/jwt';
// The session's claims (sid, gen) are declared with the next-auth options; types only.
import type {} from './auth';
import { authSecret } from './auth-secret';

/** next-auth's session cookie, with the `__Secure-` prefix when served over https. */
const COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

export type CookieReader = (name: string) => string | undefined;

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
