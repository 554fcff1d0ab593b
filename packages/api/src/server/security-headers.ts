/**
 * Security headers shared by every door (docs/security.md). HSTS only once the deployment is
 * served over https (CHORUS_PUBLIC_URL): on plain http it would be ignored, or wrong.
 */
export function hstsHeader(env: Record<string, string | undefined> = process.env) {
  return env.CHORUS_PUBLIC_URL?.trim().startsWith('https://')
    ? 'max-age=63072000; includeSubDomains'
    : undefined;
}

/** What every API answer carries: no sniffing, no Referer, HSTS when on https. */
export function apiSecurityHeaders(): Record<string, string> {
  const hsts = hstsHeader();
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...(hsts && { 'Strict-Transport-Security': hsts }),
  };
}

/** Every answer of the API says which version of it answered (docs/api.md). */
export const API_VERSION = '1';
