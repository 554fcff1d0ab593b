/**
 * Next alone (the dashboard, sign-in, /docs, next-auth's /api/auth), on a loopback port of its
 * own, behind scripts/serve.ts, which starts it and forwards every non-API path here. Apart from
 * the API's process, so that Next's memory and its patches of Node's globals stay out of the
 * API's way. Tells its parent the port once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import next from 'next';

const dev = process.argv.includes('--dev');
const appDir = fileURLToPath(new URL('..', import.meta.url));

const server = createServer();
const app = next({ dev, dir: appDir, hostname: '127.0.0.1', httpServer: server });
await app.prepare();
server.on('request', app.getRequestHandler());
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});

// The parent going away (a crash, a kill -9) takes this process with it.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
