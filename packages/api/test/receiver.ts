import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer =
  | {
      status: number;
      body?: string;
      headers?: Record<string, string>;
      /** Answers once this settles: an attempt held in flight. */
      after?: Promise<void>;
    }
  | 'hang';

/**
 * A webhook receiver on loopback: it keeps every request and answers from a script of
 * answers (then 200), when told to only once a promise settles, or hangs.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const script: Answer[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters.splice(0)) wake();
      const answer = script.shift() ?? { status: 200, body: 'ok' };
      if (answer === 'hang') return;
      void (answer.after ?? Promise.resolve()).then(() => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next answers, in order. */
    answer: (...answers: Answer[]) => script.push(...answers),
    /** Resolves once `n` requests have arrived. */
    async until(n: number, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`received ${received.length} of ${n}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
