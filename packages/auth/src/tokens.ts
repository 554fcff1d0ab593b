import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A uniformly random base62 string (each character carries ~5.95 bits). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/**
 * Secrets we issue carry 190+ bits of entropy, so a fast SHA-256 is a sound lookup hash:
 * there is nothing to brute-force, and verifying a request costs one index probe.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export type ApiKeyEnvironment = 'live' | 'test';

/** `csk_live_…` / `csk_test_…`: the prefix makes a leaked key recognisable (decisions §9). */
export const API_KEY_PATTERN = /^csk_(live|test)_[0-9A-Za-z]{32,}$/;

export function generateApiKey(environment: ApiKeyEnvironment) {
  const secret = `csk_${environment}_${randomBase62(40)}`;
  return { secret, hash: hashToken(secret), lastFour: secret.slice(-4) };
}
