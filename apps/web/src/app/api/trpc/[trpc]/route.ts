import { appRouter, readCapped, toApiError } from '@chorus/api';
import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { randomUUID } from 'node:crypto';
import { getDatabase } from '~/server/database';
import { cookieReader, sessionPrincipal } from '~/server/session';

export const dynamic = 'force-dynamic';

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

/** tRPC bodies (batches included) are small; the same cap as REST bodies (decisions §6). */
const MAX_BODY = 1024 * 1024;

/** The request with its body read under the cap (the fetch adapter would read it whole). */
async function capped(req: Request): Promise<Request> {
  if (req.method === 'GET' || req.method === 'HEAD') return req;
  const body = await readCapped(req, MAX_BODY);
  return new Request(req.url, { method: req.method, headers: req.headers, body });
}

/** The typed door for the dashboard and internal apps; the same procedures as REST. */
async function handleTrpc(incoming: Request) {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  let req: Request;
  try {
    req = await capped(incoming);
  } catch (error) {
    const failure = toApiError(error);
    return Response.json(
      { error: { message: failure.message, code: -32600, data: { error: failure } } },
      { status: failure.status, headers: { 'X-Request-Id': requestId, 'API-Version': '1' } },
    );
  }
  const database = await getDatabase();
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

export { handleTrpc as GET, handleTrpc as POST };
