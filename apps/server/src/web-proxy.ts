import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  request,
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { log } from '@chorus/api';
import { apiError, refuse } from '@chorus/api/server';
import { admit, requestId, type BudgetOptions } from './web-budgets';

/** Headers of one connection, not of the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = { ...headers };
  const named = String(headers.connection ?? '').split(',');
  for (const name of [...HOP_BY_HOP, ...named.map((n) => n.trim().toLowerCase())])
    delete kept[name];
  return kept;
}

/** Next's own entry: it stays in the web app, whose `next` and directory it serves. */
const webEntry = createRequire(import.meta.url).resolve('@chorus/web/serve-web');

/**
 * Starts Next (apps/web/scripts/serve-web.ts) with `env` as its whole environment, and
 * resolves with its socket's path once it listens.
 */
export function startWeb(
  dev: boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; socket: string }> {
  const child = fork(webEntry, dev ? ['--dev'] : [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env,
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { socket: string }) =>
      resolve({ child, socket: message.socket }),
    );
    child.once('exit', (code) =>
      reject(new Error(`The web server exited (${code}) before listening.`)),
    );
  });
}

/** Bodies for next-auth (a sign-in form, a CSRF token): a few fields, never more. */
export const AUTH_BODY_LIMIT = 64 * 1024;
/** Any other body Next takes: server actions' forms (Next's own limit is 1 MB). */
export const WEB_BODY_LIMIT = 1024 * 1024;

export type WebProxyOptions = BudgetOptions;

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0] ?? '/';
const bodyLimit = (path: string) =>
  path === '/api/auth' || path.startsWith('/api/auth/') ? AUTH_BODY_LIMIT : WEB_BODY_LIMIT;

/**
 * Refuses a body over the limit in the envelope without reading the rest: the connection
 * closes after the answer, so nothing more of it is buffered, here or in Next.
 */
const tooLarge = (req: IncomingMessage, res: ServerResponse, limit: number) =>
  refuse(
    res,
    requestId(req),
    apiError('payload_too_large', `The request body exceeds ${limit} bytes.`, { limit }),
    { Connection: 'close' },
  );

/**
 * Forwards a request to the web server on `socket`, streaming both ways (pages render as they
 * stream). The client's end-to-end headers reach it as sent, and X-Forwarded-For as the
 * listener stamped it, whatever the client's Connection header names. Bodies are capped
 * (small for next-auth) as they stream: Next buffers a form whole before it reads it.
 */
export function webProxy(socket: string, options: WebProxyOptions) {
  const agent = new Agent({ keepAlive: true });
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req);
    const limit = bodyLimit(path);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return tooLarge(req, res, limit);
    // Counted first (sign-in attempts, server actions), before a byte goes to Next.
    void admit(req, res, options).then(
      (admitted) => admitted && forward(req, res, socket, agent, limit),
      () => forward(req, res, socket, agent, limit),
    );
  };
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  socket: string,
  agent: Agent,
  limit: number,
) {
  const headers = endToEnd(req.headers);
  // `Connection: X-Forwarded-For` would have dropped the address the listener stamped: put
  // it back, or Next (the sign-in throttle) would not know who is asking.
  if (req.headers['x-forwarded-for'] !== undefined)
    headers['x-forwarded-for'] = req.headers['x-forwarded-for'];
  const upstream = request(
    { socketPath: socket, agent, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  let refused = false;
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    // Refused here, or the client left (the close below): no one to answer.
    if (refused || res.closed) return;
    log('warn', 'web server unreachable', {
      requestId: requestId(req),
      path: pathOf(req),
      code: error.code,
      reusedSocket: upstream.reusedSocket,
    });
    if (res.headersSent) return void res.destroy();
    res
      .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
      .end('The web server is unavailable.');
  });
  // A client that leaves stops the work it asked for.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  // A body without a length (chunked) is counted as it streams: past the limit, Next's
  // request is dropped and the client refused, and nothing more is read.
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received <= limit) return;
    if (refused) return;
    refused = true;
    req.unpipe(upstream);
    req.pause();
    if (!res.headersSent) tooLarge(req, res, limit);
    else res.destroy();
    upstream.destroy();
  });
  req.pipe(upstream);
}

/**
 * Forwards a protocol upgrade (the development server's live reload) to the web server. In
 * production Next serves none: there `refuseUpgrade` gets no web handler and refuses them all.
 */
export function webUpgrade(path: string) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const upstream = connect(path, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  };
}
