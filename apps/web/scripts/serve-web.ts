/**
 * Next alone (the dashboard, sign-in, /docs, next-auth's /api/auth), behind apps/server/src/serve.ts,
 * which starts it and forwards every non-API path here. Apart from the API's process, so that
 * Next's memory and its patches of Node's globals stay out of the API's way.
 *
 * It listens on a Unix socket in a directory only this user can enter, not on a TCP port: the
 * app's server stamps the client's address into X-Forwarded-For (the sign-in throttle's key),
 * and on a port any local process could reach Next directly with an address of its choosing.
 * Tells its parent the socket's path once it listens.
 *
 * It stays in the web app because it imports `next` and serves this directory; apps/server
 * starts it by its package name (`@chorus/web/serve-web`), with the environment it is given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { createWebServer } from './web-server';

const dev = process.argv.includes('--dev');
const appDir = fileURLToPath(new URL('..', import.meta.url));

const server = createWebServer();
const app = next({ dev, dir: appDir, hostname: '127.0.0.1', httpServer: server });
await app.prepare();
server.on('request', app.getRequestHandler());
// mkdtemp makes the directory with mode 0700.
const dir = mkdtempSync(join(tmpdir(), 'chorus-web-'));
const socket = join(dir, 'next.sock');
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
server.listen(socket, () => process.send?.({ socket }));

// The parent going away (a crash, a kill -9) takes this process with it.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
