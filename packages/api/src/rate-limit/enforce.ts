import { AppError } from '@chorus/services';
import type { Bucket } from './limits';
import type { RateLimiter } from './limiter';
import type { Decision } from './store';

function setHeaders(headers: Headers, decision: Decision) {
  headers.set('X-RateLimit-Limit', String(decision.limit));
  headers.set('X-RateLimit-Remaining', String(decision.remaining));
  // Epoch seconds (docs/rate-limits-and-idempotency.md), rounded up so that the window has ended by then.
  headers.set('X-RateLimit-Reset', String(Math.ceil(decision.reset / 1000)));
}

/**
 * Counts the request (as `cost` requests: a tRPC batch of N calls costs N) and sets the
 * rate-limit headers. Over the limit, adds `Retry-After` and throws 429 `rate_limit_exceeded`:
 * called before any work, so a refused request does none.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  bucket: Bucket,
  headers: Headers,
  cost = 1,
) {
  const decision = await limiter.check(bucket, cost);
  setHeaders(headers, decision);
  if (decision.success) return;
  const retryAfter = Math.max(1, Math.ceil((decision.reset - Date.now()) / 1000));
  headers.set('Retry-After', String(retryAfter));
  throw new AppError(
    'rate_limit_exceeded',
    `Rate limit exceeded: ${decision.limit} requests per minute. Retry after ${retryAfter} s.`,
    { limit: decision.limit, retryAfter },
  );
}

/** Sets the rate-limit headers of a request that is not counted (e.g. health probes). */
export async function reportRateLimit(limiter: RateLimiter, bucket: Bucket, headers: Headers) {
  setHeaders(headers, await limiter.peek(bucket));
}
