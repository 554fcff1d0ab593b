import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, type NodeHandler as NodeListener } from '../src/server/listener';
import { requestUrl, toRequest } from '../src/server/node-fetch';

export type FetchHandler = (req: Request) => Promise<Response>;

/**
 * A fetch handler behind a real listening socket on loopback, so tests send bytes as a client
 * does (chunked bodies, broken encodings, odd headers) rather than building `Request` objects.
 * The request reaches the handler as the app's server hands it over (`toRequest`).
 */
export async function serveOnLoopback(handle: FetchHandler) {
  const server = createServer((req, res) => {
    const url = requestUrl(req);
    if (!url) return void res.writeHead(400).end();
    handle(toRequest(req, url))
      .then(async (response) => {
        const headers = Object.fromEntries(response.headers);
        // Answered before the body was read (a 413): the connection cannot be reused.
        if (!req.complete) headers.connection = 'close';
        res.writeHead(response.status, headers);
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        // A handler that throws is a bug the tests must see as a 5xx.
        res.writeHead(599).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The app's own HTTP server (`createHttpServer`) with a listener, on a loopback port. */
export async function listenOnLoopback(listener: NodeListener) {
  const server = createHttpServer();
  server.on('request', listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
