/** The API's JSON answers and the spec's error envelope: the one place they are built. */
import type { ApiError } from './errors';
import { JsonAnswer } from './node-fetch';
import { API_VERSION, apiSecurityHeaders } from './security-headers';

/** The headers every answer of the API starts with, errors included (docs/api.md). */
export const responseHeaders = (requestId: string) =>
  new Headers({ 'X-Request-Id': requestId, 'API-Version': API_VERSION, ...apiSecurityHeaders() });

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
