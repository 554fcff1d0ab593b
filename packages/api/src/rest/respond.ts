import { randomFromPool } from '@chorus/services';
import type { ApiError } from '../server/errors';
import { JsonAnswer } from '../server/node-fetch';
import { apiSecurityHeaders } from '../server/security-headers';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's X-Request-Id when it is a sane token, else a new one: a label the answer and the
 * log share, not a secret (docs/api.md).
 */
export const requestIdFor = (req: Request): string =>
  requestIdFrom(req.headers.get('x-request-id'));

/** The same, from the header's value (null or undefined when absent). */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming)
    ? incoming
    : `req_${randomFromPool(12).toString('hex')}`;
}

/** The headers every REST answer starts with, errors included (docs/api.md). */
export const responseHeaders = (requestId: string) =>
  new Headers({ 'X-Request-Id': requestId, 'API-Version': '1', ...apiSecurityHeaders() });

export function json(status: number, body: unknown, headers: Headers): JsonAnswer {
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new JsonAnswer(status, headers, JSON.stringify(body));
}

/** The spec's error envelope. */
export const errorEnvelope = (error: ApiError) => ({ success: false, error });

export function errorResponse(error: ApiError, headers: Headers): JsonAnswer {
  if (error.status === 401) headers.set('WWW-Authenticate', 'Bearer realm="chorus"');
  return json(error.status, errorEnvelope(error), headers);
}
