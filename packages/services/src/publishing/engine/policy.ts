import type { TargetError } from '@chorus/db';
import type { ClassifiedError } from '../provider';
import type { PublishingSettings } from './settings';

/**
 * What becomes of a target after a failed attempt (docs/publishing.md), decided here only:
 * - `rate_limited`: again at the network's Retry-After; `transient`: again after a backoff
 *   (15 s, 1 min, 4 min, 16 min by default, ±20 %); either way at most `maxAttempts` attempts
 *   within `windowMs` of the first, then `failed` (retryable by hand);
 * - `revoked`: `failed` `reconnect_required` (the caller marks the connection);
 * - `rejected`: `failed` with the network's message, not retryable as it is;
 * - `unknown_outcome`: retried like a transient failure where the provider is idempotent,
 *   else `unconfirmed`: never sent again by itself, a person resolves it;
 * - `token_expired` reaching here means a refreshed token was refused too: retried later;
 * - `address_refused`: `failed` `service_url_refused` at once, never retried by itself (the
 *   server's address stays refused until the channel is connected again elsewhere or the
 *   deployment allows it; then `retry` can help).
 */
export type Verdict =
  | { kind: 'retry'; at: Date; error: TargetError }
  | { kind: 'failed'; error: TargetError; reconnect?: boolean }
  | { kind: 'unconfirmed'; error: TargetError };

export interface AttemptFacts {
  /** Attempts made so far, this one included. */
  attempts: number;
  firstAttemptAt: Date;
  now: Date;
  idempotent: boolean;
}

const CODES: Record<ClassifiedError['class'], string> = {
  rate_limited: 'rate_limited',
  transient: 'network_error',
  token_expired: 'token_expired',
  revoked: 'reconnect_required',
  rejected: 'rejected',
  unknown_outcome: 'unknown_outcome',
  address_refused: 'service_url_refused',
};

/** The delay before attempt `attempts + 1` after a transient failure. */
export function backoffMs(attempts: number, settings: PublishingSettings, random = Math.random) {
  const base = settings.backoffMs * 4 ** Math.max(0, attempts - 1);
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function verdict(
  failure: ClassifiedError,
  facts: AttemptFacts,
  settings: PublishingSettings,
): Verdict {
  const error = (retryable: boolean): TargetError => ({
    code: CODES[failure.class],
    message: failure.message,
    retryable,
  });
  switch (failure.class) {
    case 'revoked':
      return { kind: 'failed', error: error(true), reconnect: true };
    case 'rejected':
      return { kind: 'failed', error: error(false) };
    case 'address_refused':
      return { kind: 'failed', error: error(true) };
    case 'unknown_outcome':
      if (!facts.idempotent) {
        return {
          kind: 'unconfirmed',
          // In plain words: the provider's message names hosts and socket codes, which are
          // the worker's log's (attempt.ts), not the account's (docs/security.md, Input).
          // Not retryable: retry leaves it alone until it is resolved.
          error: {
            code: 'unconfirmed',
            message:
              'The network may have published this post, but its answer was lost. Check the channel on the network, then resolve the target.',
            retryable: false,
          },
        };
      }
      break;
    default:
      break;
  }
  const delay =
    failure.class === 'rate_limited'
      ? Math.max(failure.retryAfterMs ?? settings.backoffMs, 0)
      : backoffMs(facts.attempts, settings);
  const at = new Date(facts.now.getTime() + delay);
  const deadline = facts.firstAttemptAt.getTime() + settings.windowMs;
  if (facts.attempts >= settings.maxAttempts || at.getTime() > deadline) {
    return { kind: 'failed', error: error(true) };
  }
  return { kind: 'retry', at, error: error(true) };
}
