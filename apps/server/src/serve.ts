/**
 * The app's HTTP server, started by `npm start` (src/start.ts) (and `npm run dev` with --dev): one port.
 * /api/* is served here by the API's own doors (the REST door, the tRPC door), and so are the
 * OAuth token, revocation, introspection and metadata endpoints; every other path, and
 * next-auth's /api/auth, is forwarded to Next, which runs in a child process on a
 * Unix socket of its own (apps/web/scripts/serve-web.ts). The API's process thus holds no part of Next: not its
 * memory (pages, caches, a second copy of React) nor its patches of Node's globals, and a
 * request to the API pays for none of them.
 *
 * To serve another non-tRPC handler under /api/ (a multipart upload, say), add it to the REST
 * table as a handler route (packages/api/src/rest/table.ts): the pipeline serves it.
 */
import { defaultRateLimiter } from '@chorus/api';
import { apiMounts, createApiListener, createHttpServer, refuseUpgrade } from '@chorus/api/server';
import { readSetting } from '@chorus/settings';
import { getDatabase } from '@chorus/web/server/database';
import { requestSessionPrincipal } from '@chorus/web/server/session';
import { portProblem } from './port';
import { startWeb, webProxy, webUpgrade } from './web-proxy';

const dev = process.argv.includes('--dev');
const port = readSetting('PORT', process.env);

/** Next's whole environment, built by `npm start` from the settings (src/child-envs.ts). */
const webEnv = await new Promise<NodeJS.ProcessEnv>((resolve) =>
  process.once('message', (message: { webEnv: NodeJS.ProcessEnv }) => resolve(message.webEnv)),
);
const web = await startWeb(dev, webEnv);
// Without its web server this one is of no use: stop, and let the supervisor (npm start) see.
web.child.on('exit', (code) => process.exit(code ?? 1));

const server = createHttpServer();
server.on(
  'request',
  createApiListener({
    // tRPC, the OAuth machine endpoints (/oauth/authorize is a page, in Next) and REST, each
    // through the one pipeline; the session counts only on the routes that accept it.
    mounts: apiMounts({ getDatabase, sessionPrincipal: requestSessionPrincipal }),
    webPaths: ['/api/auth'],
    // Sign-in attempts and server actions count in the doors' limiter: one budget each.
    web: webProxy(web.socket, {
      rateLimiter: defaultRateLimiter(),
      sessionPrincipal: requestSessionPrincipal,
    }),
  }),
);
// Only the development server answers upgrades (live reload); in production, none is served.
server.on('upgrade', refuseUpgrade(dev ? webUpgrade(web.socket) : undefined));
// Another process may have taken the port since `npm start` checked it: say so, and fail.
server.on('error', (error) => {
  process.stderr.write(`[chorus] Could not start: ${portProblem(String(port), error)}\n`);
  web.child.removeAllListeners('exit');
  web.child.kill('SIGTERM');
  process.exit(1);
});
// Tells `npm start` it serves (the port, as bound: PORT=0 picks one).
server.listen(port, () => {
  const address = server.address();
  process.send?.({ listening: typeof address === 'object' && address ? address.port : port });
});

// Requests in flight get a few seconds to finish; idle keep-alive connections close at once.
const stop = () => {
  web.child.removeAllListeners('exit');
  web.child.kill('SIGTERM');
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// `npm start` gone without stopping this process (it crashed, or was killed with -9): stop too.
// Left running, this server would hold the port against the restarted instance, and serve
// without the job worker and (on the embedded default) the database that went with it.
process.on('disconnect', stop);
