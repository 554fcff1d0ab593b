import { randomFromPool } from '@chorus/services';

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
