import { appRouter } from '@chorus/api';
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

/** The typed door for the dashboard and internal apps; the same procedures as REST. */
async function handleTrpc(req: Request) {
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

export { handleTrpc as GET, handleTrpc as POST };
