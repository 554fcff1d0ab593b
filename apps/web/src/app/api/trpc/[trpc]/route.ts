import { appRouter, readCapped, toApiError } from '@chorus/api';
import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { randomUUID } from 'node:crypto';
import { getDatabase } from '~/server/database';
import { requestSessionPrincipal } from '~/server/session';

export const dynamic = 'force-dynamic';

/** A bearer token when one is sent (API key or OAuth); otherwise the dashboard session. */
async function principalFor(req: Request, database: Database): Promise<Principal | null> {
  const token = bearerToken(req.headers.get('authorization'));
  if (token) return authenticateBearer(database.db, token);
  return requestSessionPrincipal(req);
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
