import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebServer } from '../scripts/web-server';

const server = createWebServer().on('request', (_req, res) => res.end('ok'));
// As the app server's proxy pools its connections to Next.
const agent = new Agent({ keepAlive: true });

afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function get(): Promise<{ status: number; reused: boolean }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject).end();
  });
}

describe("Next's HTTP server", () => {
  it("keeps the proxy's idle connection open past Node's default keep-alive (5 s)", async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect(await get()).toEqual({ status: 200, reused: false });
    // Node's default closes it after 5 s and a second of grace: a request sent then would meet
    // the close.
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(await get()).toEqual({ status: 200, reused: true });
  });
});
