import { retryAfterMs } from '../../http';
import type { ClassifiedError } from '../../provider';
import { classifyAnswered } from '../common/provider-error';

/**
 * Mastodon's errors are `{ "error": "…" }` (docs.joinmastodon.org/entities/Error). Its tokens do
 * not expire and have no refresh: a 401 (invalid or revoked token) or a 403 about the login or
 * the token's scopes can only be fixed by connecting again.
 */

/** Media still processing: the same request succeeds in a moment. */
const NOT_READY = /have not finished processing/i;
/** A 403 that refuses one action rather than the account or its token. */
const NOT_ALLOWED = 'This action is not allowed';
/** An app token (no user behind it) used where a user's is needed. */
const NO_USER = 'This method requires an authenticated user';

/** The instance's own words, as they came: the engine cleans and caps them (failure.ts). */
export function mastodonMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error } = body as { error?: unknown };
  return typeof error === 'string' ? error : undefined;
}

/** X-RateLimit-Reset is an ISO 8601 timestamp on Mastodon. */
function resetInMs(headers: Headers | undefined): number | undefined {
  const reset = Date.parse(headers?.get('x-ratelimit-reset') ?? '');
  return Number.isNaN(reset) ? retryAfterMs(headers) : Math.max(0, reset - Date.now());
}

export const classifyMastodon = (error: unknown): ClassifiedError =>
  classifyAnswered(error, ({ status, headers, body, fallback }) => {
    const message = mastodonMessage(body) ?? fallback;
    if (status === 401 || (status === 403 && message !== NOT_ALLOWED))
      return { class: 'revoked', message };
    if (status === 422 && message === NO_USER) return { class: 'revoked', message };
    if (status === 429) return { class: 'rate_limited', message, retryAfterMs: resetInMs(headers) };
    if (status >= 500 || (status === 422 && NOT_READY.test(message))) {
      return { class: 'transient', message };
    }
    return { class: 'rejected', message };
  });
