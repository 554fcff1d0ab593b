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

/**
 * Puts the suite's account in a time zone (the posts pages show and read times in it). The
 * account is shared by every file: a file that changes it puts back `UTC` after its tests.
 */
export async function putAccountZone(token: string, timeZone: string) {
  const set = await callApi(token, 'PUT', '/api/account/settings', { timeZone });
  if (set.status !== 200) throw new Error(`The account's zone was not set: ${set.status}`);
}
