/**
 * The API's REST door alone on a loopback port, in a process of its own, as `npm start` serves
 * it: `bench:publishing` samples its latency while the engine publishes, so that the API's p99
 * is measured on its own event loop, not the workers'. Env: DATABASE_URL, PORT. Prints
 * `listening <port>` once it accepts requests.
 */
import type { AddressInfo } from 'node:net';
import { openDatabase } from '@chorus/db';
import { createApiListener, createHttpServer } from '@chorus/api/server';
import { createRestDoor } from '@chorus/api/rest';

const database = await openDatabase({ url: process.env.DATABASE_URL ?? '' });
const server = createHttpServer();
server.on(
  'request',
  createApiListener({
    mounts: [['/api', createRestDoor({ getDatabase: async () => database })]],
    webPaths: [],
    web: (_req, res) => void res.writeHead(404).end(),
  }),
);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void database.close().then(() => process.exit(0));
});
