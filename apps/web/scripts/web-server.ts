import { createServer, type Server } from 'node:http';

/**
 * The HTTP server Next answers on, whose one client is the app server's proxy
 * (apps/server/src/web-proxy.ts), over keep-alive connections it pools.
 *
 * It never closes a connection the proxy keeps idle. With Node's default (5 s), the proxy could
 * send a request on a pooled connection at the moment this server closed it, and answer the
 * browser 502 "The web server is unavailable." (seen on a loaded machine, a page after a pause
 * of a few seconds). The proxy closes what it no longer pools; on SIGTERM, `close()` ends the
 * idle ones.
 */
export function createWebServer(): Server {
  const server = createServer();
  server.keepAliveTimeout = 0;
  return server;
}
