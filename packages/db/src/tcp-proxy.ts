import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** The loopback port it listens on. */
  port: number;
  /** Drops every connection and refuses new ones: the server behind it gone away. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback for tests: each connection is relayed to the port `target` names
 * when it arrives (on `host`). In front of a database, a test cuts it off and restores it
 * without stopping the server; in front of several app instances, it is a balancer.
 */
export async function startTcpProxy(target: () => number, host = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(target(), host);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      refusing = true;
      dropAll();
    },
    restore: () => {
      refusing = false;
    },
    close: async () => {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
