import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiError, type ApiError } from './errors';
import { errorEnvelope } from './respond';
import { requestIdFrom } from './request-id';
import { API_VERSION, apiSecurityHeaders } from './security-headers';

const MALFORMED =
  'The request could not be parsed: check the request line, the URL and the headers.';

/** A request the doors cannot even read, answered in the envelope on the Node response. */
export function refuse(
  res: ServerResponse,
  incomingId: string | undefined,
  error: ApiError,
  headers: Record<string, string> = {},
) {
  const body = JSON.stringify(errorEnvelope(error));
  res.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': requestIdFrom(incomingId),
    'API-Version': API_VERSION,
    ...apiSecurityHeaders(),
    ...headers,
  });
  res.end(body);
}

export const malformed = () => apiError('validation_error', MALFORMED);

/**
 * What Node's HTTP parser refuses before any handler sees it (a broken request line, an odd
 * method, bad or over-long headers, an over-long URL), and CONNECT, which has no handler:
 * written straight to the socket, in the envelope, then the connection is closed, since what
 * follows on it cannot be trusted. `headers`: the rate-limit headers, where the caller is known.
 */
export function refuseOnSocket(
  socket: Duplex,
  error: ApiError = malformed(),
  headers: Record<string, string> = {},
) {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(errorEnvelope(error));
  const reason = error.status === 405 ? 'Method Not Allowed' : 'Bad Request';
  socket.end(
    [
      `HTTP/1.1 ${error.status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestIdFrom(undefined)}`,
      `API-Version: ${API_VERSION}`,
      ...Object.entries({ ...apiSecurityHeaders(), ...headers }).map(
        ([name, value]) => `${name}: ${value}`,
      ),
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
