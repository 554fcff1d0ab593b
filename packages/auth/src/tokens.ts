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

/** `csk_live_…` / `csk_test_…`: the prefix makes a leaked key recognisable (docs/security.md). */
export const API_KEY_PATTERN = /^csk_(live|test)_[0-9A-Za-z]{32,}$/;

export function generateApiKey(environment: ApiKeyEnvironment) {
  const secret = `csk_${environment}_${randomBase62(40)}`;
  return { secret, hash: hashToken(secret), lastFour: secret.slice(-4) };
}

/**
 * What the OAuth authorization server issues, each recognisable by its prefix (so that
 * authentication can route a bearer token, and a leaked one can be spotted): access tokens,
 * refresh tokens, authorization codes and client secrets. 43 base62 characters ≈ 256 bits.
 */
export const OAUTH_PREFIX = {
  accessToken: 'cso_at_',
  refreshToken: 'cso_rt_',
  code: 'cso_ac_',
  clientSecret: 'cso_cs_',
} as const;

export type OAuthSecretKind = keyof typeof OAUTH_PREFIX;

const OAUTH_SECRET_LENGTH = 43;

export function generateOAuthSecret(kind: OAuthSecretKind) {
  const secret = `${OAUTH_PREFIX[kind]}${randomBase62(OAUTH_SECRET_LENGTH)}`;
  return { secret, hash: hashToken(secret), lastFour: secret.slice(-4) };
}

/** True when `value` has the shape of an OAuth secret of `kind` (before any database look-up). */
export const isOAuthSecret = (kind: OAuthSecretKind, value: string) =>
  value.length === OAUTH_PREFIX[kind].length + OAUTH_SECRET_LENGTH &&
  value.startsWith(OAUTH_PREFIX[kind]) &&
  /^[0-9A-Za-z]+$/.test(value.slice(OAUTH_PREFIX[kind].length));
