import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every stand-in shares: a real HTTP server on loopback that records each request it
 * received. A stand-in speaks one network's public API (paths, bodies, errors, rate-limit
 * headers) for what is out of reach here; where the real server runs here (Bluesky's PDS),
 * tests use it instead.
 */
export interface ReceivedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The raw body (multipart and binary uploads included). */
  body: Buffer;
  at: Date;
}

export type Route = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
) => void | Promise<void>;

export interface StandIn {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Largest body a stand-in reads; real networks cap uploads too. */
const MAX_BODY = 600 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts `route` on a free loopback port; an exception in it answers 500, as a real server would. */
export async function startStandIn(route: Route, port = 0): Promise<StandIn> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        received.push({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          body,
          at: new Date(),
        });
        await route(req, res, body);
      } catch {
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        else res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
