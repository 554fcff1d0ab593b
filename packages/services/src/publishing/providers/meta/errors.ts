import { z } from 'zod';
import { classifyHttp, NetworkError, retryAfterMs } from '../../http';
import type { ClassifiedError } from '../../provider';
import { classifyAnswered, type NetworkAnswer } from '../common/provider-error';
import { RetrySafe } from './graph';

/**
 * Meta's error object, the same on every Graph host
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling), classified by its
 * code and subcode rather than its HTTP status (Meta answers 400 for most of them, throttling
 * and expired tokens included).
 */
const ZGraphError = z.object({
  error: z.object({
    message: z.string().optional(),
    code: z.number().int().optional(),
    error_subcode: z.number().int().optional(),
    is_transient: z.boolean().optional(),
    error_user_msg: z.string().optional(),
  }),
});

/** Subcodes of code 190 for a grant that is gone: app removed, checkpoint, password changed… */
const REVOKED_SUBCODES = new Map([
  [458, 'The app was removed from the account.'],
  [459, 'The account needs a security check at the network before it can be used again.'],
  [460, 'The password was changed, which ended the session.'],
  [464, 'The account is not confirmed.'],
  [467, 'The access token is no longer valid.'],
  [492, 'The user no longer has a role on the Page.'],
]);
const EXPIRED_SUBCODE = 463;
/** Throttling: app (4), user (17), Page (32), custom (613), business use cases (80001–80014). */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** Instagram's own daily publishing limit (code 9, subcode 2207042). */
const PUBLISHING_LIMIT = { code: 9, subcode: 2207042 };
/** Code 4 also means "we restrict certain activity" (Instagram's spam guard): a refusal. */
const SPAM_GUARD_SUBCODE = 2207051;

/** The longest wait the business-use-case header announces (minutes), in milliseconds. */
function usageRetryAfter(headers: Headers | undefined): number | undefined {
  const raw = headers?.get('x-business-use-case-usage');
  if (!raw) return undefined;
  try {
    const usage = z
      .record(
        z.string(),
        z.array(z.object({ estimated_time_to_regain_access: z.number().optional() })),
      )
      .parse(JSON.parse(raw));
    const minutes = Math.max(
      0,
      ...Object.values(usage).flatMap((entries) =>
        entries.map((entry) => entry.estimated_time_to_regain_access ?? 0),
      ),
    );
    return minutes > 0 ? minutes * 60_000 : undefined;
  } catch {
    return undefined;
  }
}

export interface GraphNetwork {
  /** Whether an expired token can be renewed without the person (Instagram, Threads). */
  refreshable: boolean;
}

/** What Meta answered, by its error object's code and subcode. */
function byGraphAnswer(answer: NetworkAnswer, network: GraphNetwork): ClassifiedError {
  const parsed = ZGraphError.safeParse(answer.body);
  if (!parsed.success) {
    // Not Meta's error object (a proxy's page): the status decides.
    return classifyHttp(new NetworkError(answer.fallback, { ...answer, sent: true }));
  }
  const { code, error_subcode: subcode, is_transient, message, error_user_msg } = parsed.data.error;
  const words = error_user_msg ?? message ?? answer.fallback;
  if (code === 190 || code === 102) {
    const revoked = subcode === undefined ? undefined : REVOKED_SUBCODES.get(subcode);
    if (revoked) return { class: 'revoked', message: `${revoked} ${words}` };
    return network.refreshable && (subcode === undefined || subcode === EXPIRED_SUBCODE)
      ? { class: 'token_expired', message: words }
      : { class: 'revoked', message: words };
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return { class: 'revoked', message: `A permission was removed: ${words}` };
  }
  const throttled =
    (code !== undefined && RATE_LIMIT_CODES.has(code) && subcode !== SPAM_GUARD_SUBCODE) ||
    (code !== undefined && code >= 80001 && code <= 80014) ||
    (code === PUBLISHING_LIMIT.code && subcode === PUBLISHING_LIMIT.subcode);
  if (throttled) {
    const wait = usageRetryAfter(answer.headers) ?? retryAfterMs(answer.headers);
    return { class: 'rate_limited', message: words, ...(wait ? { retryAfterMs: wait } : {}) };
  }
  // Meta's "temporary issue" codes (1, 2), Instagram's server and download errors (-1, -2) and
  // its "media not ready for publishing" (9007).
  if (is_transient || code === 1 || code === 2 || code === -1 || code === -2 || code === 9007) {
    return { class: 'transient', message: words };
  }
  if (answer.status >= 500) return { class: 'transient', message: words };
  // 368 (blocked for policy), 506 (duplicate), 100 (invalid parameter) and the rest: refusals.
  return { class: 'rejected', message: words };
}

/**
 * Classifies what a Graph call threw. A call marked `RetrySafe` (a read, a container, an
 * unpublished photo) that may have been acted on is only transient: repeating it posts nothing.
 */
export function classifyGraph(thrown: unknown, network: GraphNetwork): ClassifiedError {
  const safe = thrown instanceof RetrySafe;
  const verdict = classifyAnswered(safe ? thrown.cause : thrown, (answer) =>
    byGraphAnswer(answer, network),
  );
  return safe && verdict.class === 'unknown_outcome' ? { ...verdict, class: 'transient' } : verdict;
}

/** An object the network no longer has (a deleted post): `(#100)` subcode 33, or `(#803)`. */
export function isMissingObject(thrown: unknown): boolean {
  const error = thrown instanceof RetrySafe ? thrown.cause : thrown;
  if (!(error instanceof NetworkError)) return false;
  const parsed = ZGraphError.safeParse(error.details.body);
  if (!parsed.success) return false;
  const { code, error_subcode } = parsed.data.error;
  return (code === 100 && error_subcode === 33) || code === 803;
}
