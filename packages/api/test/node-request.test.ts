import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRequest } from '../src/server/node-fetch';
import { serveOnLoopback } from './http-server';

/** A Node request as the server's parser would hand it over, without a connection. */
function incoming(method: string, rawHeaders: string[]) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = '/api/users?limit=5';
  req.rawHeaders = rawHeaders;
  return req;
}

const url = new URL('http://chorus.test/api/users?limit=5');

describe('the request the doors receive (toRequest)', () => {
  it('reads method, URL and headers as fetch does, repeated headers joined', () => {
    const req = toRequest(
      incoming('GET', ['Host', 'chorus.test', 'X-Repeat', 'a', 'x-repeat', 'b']),
      url,
    );
    expect(req.method).toBe('GET');
    expect(req.url).toBe(url.href);
    expect(req.headers.get('x-repeat')).toBe('a, b');
    expect(req.headers.get('host')).toBe('chorus.test');
    expect(req.body).toBeNull();
    expect(req.signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses what a fetch Request refuses, before any door sees it', () => {
    for (const method of ['TRACE', 'TRACK', 'CONNECT']) {
      expect(() => toRequest(incoming(method, ['Host', 'chorus.test']), url)).toThrow(TypeError);
    }
    expect(() => toRequest(incoming('GET', ['X-Bad', 'a\u0000b']), url)).toThrow(TypeError);
  });

  describe('bodies, streamed from the socket', () => {
    let server: Awaited<ReturnType<typeof serveOnLoopback>>;
    beforeAll(async () => {
      server = await serveOnLoopback(async (req) => {
        const type = req.headers.get('content-type') ?? '';
        const body = type.startsWith('multipart/')
          ? Object.fromEntries(await req.formData())
          : type.includes('json')
            ? await req.json()
            : await req.text();
        return Response.json({ method: req.method, used: req.bodyUsed, body });
      });
    });
    afterAll(() => server.close());

    it('as JSON', async () => {
      const res = await fetch(`${server.base}/api/x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada' }),
      });
      expect(await res.json()).toEqual({ method: 'POST', used: true, body: { name: 'Ada' } });
    });

    it('as text, in chunks', async () => {
      const parts = ['one ', 'two ', 'three'];
      const body = new ReadableStream({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      const res = await fetch(`${server.base}/api/x`, {
        method: 'PUT',
        body,
        duplex: 'half',
      } as RequestInit);
      expect(await res.json()).toEqual({ method: 'PUT', used: true, body: 'one two three' });
    });

    it('as a multipart form', async () => {
      const form = new FormData();
      form.set('alt', 'A cat');
      const res = await fetch(`${server.base}/api/x`, { method: 'POST', body: form });
      expect(await res.json()).toEqual({ method: 'POST', used: true, body: { alt: 'A cat' } });
    });
  });
});
