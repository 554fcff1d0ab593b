import { retryAfterMs } from '../../http';
import type { ClassifiedError } from '../../provider';
import { classifyAnswered } from '../common/provider-error';

/**
 * LinkedIn's failures by their bodies, `{ status, serviceErrorCode, code, message }`
 * (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling): a revoked
 * token (65601) cannot be refreshed, an expired (65602) or invalid one can; a 429 is a daily
 * throttle, reset at midnight UTC, unless LinkedIn says when; a refusal keeps LinkedIn's words.
 */

const REVOKED_TOKEN = 65601;

interface LinkedInErrorBody {
  serviceErrorCode?: number;
  code?: string;
  message?: string;
}

/** Milliseconds until the next midnight UTC, when LinkedIn's daily limits start again. */
function untilMidnightUtc(now = new Date()) {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return midnight - now.getTime();
}

export function classifyLinkedIn(error: unknown): ClassifiedError {
  return classifyAnswered(error, ({ status, headers, body, fallback }) => {
    const { serviceErrorCode, code, message: said } = (body ?? {}) as LinkedInErrorBody;
    const message = typeof said === 'string' && said ? said.trim() : fallback;
    if (status === 401) {
      const revoked = serviceErrorCode === REVOKED_TOKEN || code === 'REVOKED_ACCESS_TOKEN';
      return { class: revoked ? 'revoked' : 'token_expired', message };
    }
    if (status === 429) {
      const wait =
        retryAfterMs(headers) ?? (/\bDAY\b/.test(message) ? untilMidnightUtc() : undefined);
      return {
        class: 'rate_limited',
        message,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      };
    }
    if (status >= 500) return { class: 'transient', message };
    return { class: 'rejected', message };
  });
}
