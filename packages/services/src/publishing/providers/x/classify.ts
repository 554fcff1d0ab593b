import { retryAfterMs } from '../../http';
import type { ClassifiedError } from '../../provider';
import { classifyAnswered } from '../common/provider-error';

/**
 * X's errors are problem details (`{ title, detail, type }`, with `errors[].message` for
 * invalid parameters); its token endpoint answers OAuth errors (`{ error, error_description }`).
 * A 401 is an access token past its two hours (refreshed once by the engine); a refresh token
 * X no longer accepts (used, revoked) means connecting again.
 */

/** What X's token endpoint answers for a refresh token it does not accept. */
const REFUSED_GRANT = new Set(['invalid_request', 'invalid_grant']);

/** X's own words, as they came: the engine cleans and caps them (failure.ts). */
export function xMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { errors, detail, title, error_description } = body as Record<string, unknown>;
  const messages = Array.isArray(errors)
    ? errors.flatMap((e) => (typeof e?.message === 'string' ? [e.message as string] : []))
    : [];
  const message =
    messages.join('; ') ||
    [detail, title, error_description].find((value): value is string => typeof value === 'string');
  return message || undefined;
}

/**
 * When the limit that ran out resets: the 24-hour user or app cap when one is at zero, the
 * 15-minute window otherwise (`x-*-reset` are epoch seconds).
 */
export function xResetInMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const windows = ['x-user-limit-24hour', 'x-app-limit-24hour', 'x-rate-limit'];
  const spent = windows.filter((name) => headers?.get(`${name}-remaining`) === '0');
  const resets = (spent.length > 0 ? spent : ['x-rate-limit'])
    .map((name) => Number(headers?.get(`${name}-reset`)))
    .filter((reset) => Number.isFinite(reset) && reset > 0);
  return resets.length > 0
    ? Math.max(0, Math.max(...resets) * 1000 - now)
    : retryAfterMs(headers, now);
}

export const classifyX = (error: unknown): ClassifiedError =>
  classifyAnswered(error, ({ status, headers, body, fallback }) => {
    const message = xMessage(body) ?? fallback;
    const oauthError = (body as { error?: unknown } | null)?.error;
    if (typeof oauthError === 'string') {
      // The token endpoint: a refused refresh token needs a new connection; a refused client is ours to fix.
      return REFUSED_GRANT.has(oauthError)
        ? { class: 'revoked', message }
        : { class: 'rejected', message };
    }
    if (status === 401) return { class: 'token_expired', message };
    if (status === 429)
      return { class: 'rate_limited', message, retryAfterMs: xResetInMs(headers) };
    if (status >= 500) return { class: 'transient', message };
    return { class: 'rejected', message };
  });
