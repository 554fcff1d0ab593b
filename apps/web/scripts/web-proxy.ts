import { fork, type ChildProcess } from 'node:child_process';
import {
  request,
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';

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

/** Starts scripts/serve-web.ts and resolves with its socket's path once it listens. */
export function startWeb(dev: boolean): Promise<{ child: ChildProcess; socket: string }> {
  const child = fork(new URL('./serve-web.ts', import.meta.url), dev ? ['--dev'] : [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
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

/**
 * Forwards a request to the web server on `socket`, streaming both ways (pages render as they
 * stream); the client's headers, X-Forwarded-For stamped already, reach it as sent.
 */
export function webProxy(socket: string) {
  const agent = new Agent({ keepAlive: true });
  return (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      {
        socketPath: socket,
        agent,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.headers),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res
        .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
        .end('The web server is unavailable.');
    });
    // A client that leaves stops the work it asked for.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}

/** Forwards a protocol upgrade (the development server's live reload) to the web server. */
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
