import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export type FetchHandler = (req: Request) => Promise<Response>;

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined) headers.append(name, one);
    }
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * A fetch handler behind a real listening socket on loopback, so tests send bytes as a client
 * does (chunked bodies, broken encodings, odd headers) rather than building `Request` objects.
 */
export async function serveOnLoopback(handle: FetchHandler) {
  const server = createServer((req, res) => {
    handle(toRequest(req))
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
