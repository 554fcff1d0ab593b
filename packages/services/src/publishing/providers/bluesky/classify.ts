import { retryAfterMs } from '../../http';
import type { ClassifiedError } from '../../provider';
import { classifyAnswered } from '../common/provider-error';

/**
 * Bluesky's failures by their XRPC error names (`{ error, message }`), as the reference PDS
 * answers them: an expired or unverifiable access JWT is refreshed (a refresh that fails for
 * good is `revoked`); a refused request keeps the PDS's own message ("Invalid
 * app.bsky.feed.post record: grapheme too big…"); a 429 waits for `ratelimit-reset`.
 */
const TOKEN_ERRORS = new Set([
  'ExpiredToken',
  'InvalidToken',
  'AuthenticationRequired',
  'AuthMissing',
]);
const ACCOUNT_GONE = new Set([
  'AccountTakedown',
  'AccountDeactivated',
  'RepoTakendown',
  'RepoDeactivated',
]);

/** `ratelimit-reset` is the end of the window in seconds since 1970, as the PDS sends it. */
function resetMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const reset = Number(headers?.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  return retryAfterMs(headers, now);
}

export function classifyBluesky(error: unknown): ClassifiedError {
  return classifyAnswered(error, ({ status, headers, body, fallback }) => {
    const { error: name, message: said } = (body ?? {}) as { error?: unknown; message?: unknown };
    const xrpcName = typeof name === 'string' ? name : '';
    const message = typeof said === 'string' && said ? said : xrpcName || fallback;
    if (status === 429 || xrpcName === 'RateLimitExceeded') {
      const wait = resetMs(headers);
      return {
        class: 'rate_limited',
        message,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      };
    }
    if (TOKEN_ERRORS.has(xrpcName) || status === 401) return { class: 'token_expired', message };
    if (ACCOUNT_GONE.has(xrpcName)) return { class: 'revoked', message };
    if (status >= 500) return { class: 'transient', message };
    return { class: 'rejected', message };
  });
}
