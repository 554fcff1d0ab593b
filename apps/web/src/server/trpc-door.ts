import { createTrpcHandler } from '@chorus/api';
import { getDatabase } from './database';
import { cookieReader, sessionPrincipal } from './session';

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

/**
 * The tRPC door (mounted at /api/trpc by scripts/serve.ts): bearer tokens, or the dashboard
 * session from the dashboard's own origin.
 */
export const handleTrpc = createTrpcHandler({
  getDatabase,
  sessionPrincipal: async (req) =>
    sameOrigin(req) ? sessionPrincipal(cookieReader(req.headers.get('cookie'))) : null,
});
