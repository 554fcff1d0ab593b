/**
 * Hostile request lines sent as raw bytes to the real server (`npm start`, started by
 * ./server.ts): every answer about /api/ is a 4xx in the spec's error envelope with an
 * X-Request-Id, never a 5xx or a framework's plain page.
 */
import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';

const base = new URL(inject('base'));

/** Sends `head` (+ CRLF CRLF) on a fresh connection and reads the whole answer. */
function exchange(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname);
    let answer = '';
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${head.slice(0, 60)}`)));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  });
}

const host = `Host: ${base.host}`;
const long = 'a'.repeat(20_000);

const HOSTILE: [name: string, head: string][] = [
  ['broken percent-encoding', `GET /api/content/posts/%E0%A4%A HTTP/1.1\r\n${host}`],
  ['broken percent-encoding on next-auth', `GET /api/auth/%E0%A4%A HTTP/1.1\r\n${host}`],
  ['lone percent sign', `GET /api/users/% HTTP/1.1\r\n${host}`],
  ['over-long URL', `GET /api/users?q=${long} HTTP/1.1\r\n${host}`],
  ['over-long header', `GET /api/users HTTP/1.1\r\n${host}\r\nX-Long: ${long}`],
  ['unknown method', `BREW /api/users HTTP/1.1\r\n${host}`],
  ['odd but known method', `PROPFIND /api/users HTTP/1.1\r\n${host}`],
  ['TRACE', `TRACE /api/users HTTP/1.1\r\n${host}`],
  ['CONNECT', `CONNECT /api/users HTTP/1.1\r\n${host}`],
  ['header without a colon', `GET /api/users HTTP/1.1\r\n${host}\r\nNoColonHere`],
  ['control character in a header', `GET /api/users HTTP/1.1\r\n${host}\r\nX-Bad: a\u0001b`],
  ['space in the request target', `GET /api/us ers HTTP/1.1\r\n${host}`],
  ['absolute-form target', `GET http://evil.example/api/users HTTP/1.1\r\n${host}`],
  ['asterisk target', `GET * HTTP/1.1\r\n${host}`],
  ['bad Host', `GET /api/users HTTP/1.1\r\nHost: a b`],
  ['no Host', 'GET /api/users HTTP/1.1'],
  ['HTTP/0.9-like line', 'GET /api/users'],
  ['unsupported version', `GET /api/users HTTP/9.9\r\n${host}`],
  ['dot segments', `GET /api/../api/./users/%2e%2e HTTP/1.1\r\n${host}`],
  [
    'conflicting lengths',
    `POST /api/users HTTP/1.1\r\n${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked`,
  ],
  ['negative length', `POST /api/users HTTP/1.1\r\n${host}\r\nContent-Length: -1`],
  ['bad bearer', `GET /api/users HTTP/1.1\r\n${host}\r\nAuthorization: Bearer \u00ff\u00fe`],
  [
    'protocol upgrade',
    `GET /api/users HTTP/1.1\r\n${host}\r\nConnection: Upgrade\r\nUpgrade: websocket`,
  ],
  ['hostile request id', `GET /api/users HTTP/1.1\r\n${host}\r\nX-Request-Id: <script>`],
];

describe('hostile request lines through the real server', () => {
  it.each(HOSTILE)('%s: a 4xx in the envelope with a request id', async (_name, head) => {
    const answer = await exchange(head);
    const [statusLine = '', ...rest] = answer.split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    expect(status, answer.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(status, answer.slice(0, 300)).toBeLessThan(500);
    const headEnd = rest.indexOf('');
    const headers = rest.slice(0, headEnd).map((line) => line.toLowerCase());
    expect(headers.some((line) => /^x-request-id: \S+/.test(line))).toBe(true);
    expect(headers).toContain('content-type: application/json; charset=utf-8');
    const body = JSON.parse(rest.slice(headEnd + 1).join('\r\n')) as {
      success: boolean;
      error: { status: number; code: string; message: string };
    };
    expect(body.success).toBe(false);
    expect(body.error.status).toBe(status);
    expect(body.error.code).toMatch(/^[a-z_]+$/);
  });
});
