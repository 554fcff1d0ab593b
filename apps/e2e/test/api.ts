import { inject } from 'vitest';

/** A JSON call to the suite's server with a bearer token; a 204's body is null. */
export async function callApi(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${inject('base')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}
