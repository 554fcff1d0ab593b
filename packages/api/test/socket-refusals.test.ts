/**
 * What the app's HTTP server answers on the socket itself, before any listener (a request
 * Node's parser refuses, CONNECT, a protocol upgrade): the envelope, with the client address's
 * budget as every answer carries it (docs/rate-limits-and-idempotency.md), reported, not spent.
 */
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiListener, createHttpServer, refuseUpgrade } from '../src/server';
import { createRateLimiter, memoryStore } from '../src/rate-limit';

const limiter = createRateLimiter({ store: memoryStore(), limits: { anonymous: 7 } });
const server = createHttpServer({ rateLimiter: limiter });
let port = 0;

beforeAll(async () => {
  server.on(
    'request',
    createApiListener({
      mounts: [],
      webPaths: [],
      web: (_req, res) => res.end('web'),
      corsOrigins: new Set(),
      rateLimiter: limiter,
    }),
  );
  server.on('upgrade', refuseUpgrade(undefined, { rateLimiter: limiter }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `head` on a fresh connection; the answer's status and headers (lower-cased names). */
function exchange(head: string) {
  return new Promise<{ status: number; headers: Map<string, string> }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => {
      const [statusLine = '', ...lines] = answer.split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines.slice(0, lines.indexOf(''))) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    socket.on('error', reject);
    socket.write(`${head}\r\n\r\n`);
  });
}

describe('answers written on the socket', () => {
  it("carry the client address's budget, which they do not spend", async () => {
    for (const [name, head, status] of [
      ['a method the parser refuses', 'BREW /api/users HTTP/1.1\r\nHost: x', 400],
      ['a header without a colon', 'GET /api/users HTTP/1.1\r\nHost: x\r\nNoColon', 400],
      ['CONNECT', 'CONNECT /api/users HTTP/1.1\r\nHost: x', 405],
      [
        'an upgrade',
        'GET /api/users HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ws',
        400,
      ],
    ] as const) {
      const { status: got, headers } = await exchange(head);
      expect(got, name).toBe(status);
      expect(headers.get('x-request-id'), name).toMatch(/^req_/);
      expect(headers.get('x-ratelimit-limit'), name).toBe('7');
      expect(headers.get('x-ratelimit-remaining'), name).toBe('7');
      expect(Number(headers.get('x-ratelimit-reset')), name).toBeGreaterThan(Date.now() / 1000 - 1);
    }
  });
});
