/**
 * The app's HTTP server, started by `npm start` (and `npm run dev` with --dev): one process,
 * one port. /api/* is served by the API's own doors in this process (the REST door, the tRPC
 * door), without Next's route pipeline in between; every other path, and next-auth's
 * /api/auth, goes to Next's request handler.
 *
 * To serve another non-tRPC handler under /api/ (a multipart upload, say), write it as a
 * fetch-style `(Request) => Promise<Response>` and add it to `mounts` before the REST door.
 */
import { fileURLToPath } from 'node:url';
import { createApiListener, createHttpServer } from '@chorus/api/http';
import { createRestDoor } from '@chorus/api/rest';
import next from 'next';
import { getDatabase } from '../src/server/database';
import { requestSessionPrincipal } from '../src/server/session';
import { handleTrpc } from '../src/server/trpc-door';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const appDir = fileURLToPath(new URL('..', import.meta.url));

const server = createHttpServer();
const app = next({ dev, dir: appDir, port, httpServer: server });
await app.prepare();

server.on(
  'request',
  createApiListener({
    mounts: [
      ['/api/trpc', handleTrpc],
      // The session counts only on the routes that accept it (media bytes and upload).
      ['/api', createRestDoor({ getDatabase, sessionPrincipal: requestSessionPrincipal })],
    ],
    webPaths: ['/api/auth'],
    web: app.getRequestHandler(),
  }),
);
server.listen(port);

// Requests in flight get a few seconds to finish; idle keep-alive connections close at once.
const stop = () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
