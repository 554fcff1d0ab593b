/**
 * A port balancer, as a load balancer in front of several app instances would be: each new
 * TCP connection goes to the next target in turn. Nothing sticks a client to an instance,
 * so whatever the instances must share (sessions, rate limits) is seen to be shared.
 */
import { connect, createServer, type Socket } from 'node:net';
import { freePort } from './processes';

export interface Balancer {
  base: string;
  /** Connections handed to each target so far, by target port. */
  counts: Map<number, number>;
  close: () => Promise<void>;
}

export async function startBalancer(targets: number[]): Promise<Balancer> {
  const counts = new Map(targets.map((port) => [port, 0]));
  const sockets = new Set<Socket>();
  let next = 0;
  const server = createServer((client) => {
    const port = targets[next++ % targets.length] as number;
    counts.set(port, (counts.get(port) ?? 0) + 1);
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    counts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
