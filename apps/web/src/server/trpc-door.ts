import { appRouter } from '@chorus/api';
import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { randomUUID } from 'node:crypto';
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

/** A bearer token when one is sent (API key or OAuth); otherwise the dashboard session. */
async function principalFor(req: Request, database: Database): Promise<Principal | null> {
  const token = bearerToken(req.headers.get('authorization'));
  if (token) return authenticateBearer(database.db, token);
  if (!sameOrigin(req)) return null;
  return sessionPrincipal(cookieReader(req.headers.get('cookie')));
}

/**
 * The typed door for the dashboard and internal apps; the same procedures as REST. Mounted at
 * /api/trpc by the app's server (scripts/serve.ts).
 */
export async function handleTrpc(req: Request) {
  const database = await getDatabase();
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async () => ({
      db: database.db,
      principal: await principalFor(req, database),
      requestId,
      origin: new URL(req.url).origin,
      response: {},
    }),
    responseMeta: () => ({
      headers: new Headers({ 'X-Request-Id': requestId, 'API-Version': '1' }),
    }),
  });
}
