import { isIP } from 'node:net';

/**
 * The caller's address for the unauthenticated budget: the first hop of X-Forwarded-For, else
 * X-Real-IP. A fetch `Request` carries no socket address, so a request with neither header
 * counts as `unknown`. Both headers are client-controlled unless the proxy in front of the
 * server overwrites them (e.g. nginx `proxy_set_header X-Forwarded-For $remote_addr;`).
 */
export function clientIp(req: Request): string {
  const forwarded = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  for (const candidate of [forwarded, req.headers.get('x-real-ip')?.trim()]) {
    // Only a real address names a bucket: arbitrary text must not mint keys at will.
    if (candidate && isIP(candidate)) return candidate.toLowerCase();
  }
  return 'unknown';
}
