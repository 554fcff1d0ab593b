/**
 * A request answered before its body was read (a refused upload) leaves a connection the
 * client can go on using: through the app's own listener and server, with Node's keep-alive
 * agent, as a Node client of the API sends its requests.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiListener, createHttpServer } from '../src/server';
import { DRAIN_LIMIT } from '../src/server/node-fetch';
import { startHarness, type Harness } from './harness';
import { EXE } from './media-fixtures';

let h: Harness;
let server: ReturnType<typeof createHttpServer>;
let port: number;

beforeAll(async () => {
  h = await startHarness();
  server = createHttpServer();
  server.on(
    'request',
    createApiListener({
      mounts: [['/api', h.handle]],
      webPaths: [],
      web: (_req, res) => res.writeHead(404).end(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  json: { success: boolean; error?: { code: string } };
  /** The client's port of the connection that carried it. */
  localPort: number | undefined;
}

/** A multipart upload of `bytes` as the file, written to the socket as it goes. */
function multipart(bytes: Buffer) {
  const boundary = 'chorus-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="setup.exe"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, bytes, tail]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

function call(
  agent: Agent,
  method: string,
  path: string,
  body?: { bytes: Buffer; type: string; chunked?: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${h.main.token}` };
    if (body) {
      headers['content-type'] = body.type;
      if (!body.chunked) headers['content-length'] = body.bytes.byteLength;
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const localPort = (res.socket as Socket | null)?.localPort;
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          json: JSON.parse(text),
          localPort,
        }),
      );
    });
    req.on('error', reject);
    if (body) {
      // In pieces, as a client streams a file: most of it is still to come when the answer is.
      for (let at = 0; at < body.bytes.byteLength; at += 64 * 1024)
        req.write(body.bytes.subarray(at, at + 64 * 1024));
    }
    req.end();
  });
}

describe('a refused upload on a keep-alive connection', () => {
  it('answers 415, then the next request on the same agent and connection succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const size of [300 * 1024, 3 * 1024 * 1024]) {
        const { body, type } = multipart(Buffer.concat([EXE, Buffer.alloc(size)]));
        const refused = await call(agent, 'POST', '/api/content/media', { bytes: body, type });
        expect(refused.status, `${size}`).toBe(415);
        expect(refused.json).toMatchObject({
          success: false,
          error: { code: 'unsupported_media_type' },
        });
        expect(refused.headers.connection).toBe('keep-alive');
        const next = await call(agent, 'GET', '/api/users');
        expect(next.status).toBe(200);
        // The rest of the upload was read and dropped: the same connection carried on.
        expect(next.localPort).toBe(refused.localPort);
      }
      // Chunked (no length declared), the same.
      const { body, type } = multipart(Buffer.concat([EXE, Buffer.alloc(500 * 1024)]));
      const chunked = await call(agent, 'POST', '/api/content/media', {
        bytes: body,
        type,
        chunked: true,
      });
      expect(chunked.status).toBe(415);
      expect((await call(agent, 'GET', '/api/users')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('answers a body declared longer than it reads with Connection: close, and the agent goes on', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { body, type } = multipart(Buffer.concat([EXE, Buffer.alloc(DRAIN_LIMIT)]));
      const refused = await call(agent, 'POST', '/api/content/media', { bytes: body, type });
      expect([413, 415]).toContain(refused.status);
      expect(refused.headers.connection).toBe('close');
      expect((await call(agent, 'GET', '/api/users')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
