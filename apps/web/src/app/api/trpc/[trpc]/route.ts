import { appRouter } from '@chorus/api';
import { authenticateBearer, bearerToken } from '@chorus/auth';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { randomUUID } from 'node:crypto';
import { getDatabase } from '~/server/database';

export const dynamic = 'force-dynamic';

/** The typed door for the dashboard and internal apps; the same procedures as REST. */
async function handleTrpc(req: Request) {
  const database = await getDatabase();
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async () => {
      const token = bearerToken(req.headers.get('authorization'));
      const principal = token ? await authenticateBearer(database.db, token) : null;
      return {
        db: database.db,
        principal,
        requestId,
        origin: new URL(req.url).origin,
        response: {},
      };
    },
    responseMeta: () => ({
      headers: new Headers({ 'X-Request-Id': requestId, 'API-Version': '1' }),
    }),
  });
}

export { handleTrpc as GET, handleTrpc as POST };
