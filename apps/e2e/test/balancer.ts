/**
 * A port balancer, as a load balancer in front of several app instances would be: each new
 * TCP connection goes to the next target in turn. Nothing sticks a client to an instance,
 * so whatever the instances must share (sessions, rate limits) is seen to be shared.
 */
import { startTcpProxy } from '@chorus/db/testing';

export interface Balancer {
  base: string;
  /** Connections handed to each target so far, by target port. */
  counts: Map<number, number>;
  close: () => Promise<void>;
}

export async function startBalancer(targets: number[]): Promise<Balancer> {
  const counts = new Map(targets.map((port) => [port, 0]));
  let next = 0;
  const proxy = await startTcpProxy(() => {
    const port = targets[next++ % targets.length] as number;
    counts.set(port, (counts.get(port) ?? 0) + 1);
    return port;
  });
  return { base: `http://127.0.0.1:${proxy.port}`, counts, close: proxy.close };
}
