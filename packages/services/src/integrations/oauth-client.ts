import { createHash, randomBytes } from 'node:crypto';
import { cleanLine, type ConnectionMeta } from '@chorus/validators';
import { z } from 'zod';
import type { JsonPath, OAuthEntry } from './catalogue';
import { serviceFetch } from '../publishing/service-url';
import { readAnswerStart, readAnswerText } from '../shared/answer-body';
import { TargetRefused } from '../webhooks/targets';
import type { ConfiguredProvider, ProviderSettings } from './settings';

/**
 * Our side of the OAuth 2.0 authorization code flow (RFC 6749 §4.1) with PKCE (RFC 7636), and
 * of the refresh grant (RFC 6749 §6) that keeps a connection's access token alive.
 */

/** A third party that has not answered by then is treated as down (a browser may be waiting). */
const TIMEOUT_MS = 10_000;

/** Where a request goes: the operator's configured URLs as they are, a user's server guarded. */
type Endpoint = Pick<ProviderSettings, 'guarded'>;

const request = (provider: Endpoint, url: string, init: RequestInit) =>
  // Redirects are not followed: a token or profile endpoint that redirects is misconfigured.
  (provider.guarded ? serviceFetch : fetch)(url, {
    ...init,
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function buildAuthUrl(
  entry: OAuthEntry,
  provider: ConfiguredProvider,
  flow: { callbackUrl: string; state: string; challenge: string },
): string {
  const url = new URL(provider.authorizeUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: flow.callbackUrl,
    scope: entry.scopes.join(entry.scopeSeparator ?? ' '),
    state: flow.state,
    code_challenge: flow.challenge,
    code_challenge_method: 'S256',
    ...entry.authorizeParams,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** Client authentication at the token and revocation endpoints (RFC 6749 §2.3.1). */
function authenticateClient(
  entry: OAuthEntry,
  provider: ConfiguredProvider,
  body: URLSearchParams,
  headers: Record<string, string>,
) {
  if (entry.clientAuth === 'client_secret_basic') {
    const pair = `${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    body.set('client_id', provider.clientId);
    body.set('client_secret', provider.clientSecret);
  }
}

/**
 * Token responses are JSON (RFC 6749 §5.1), though some providers still answer a form. Read
 * under the cap of every answer (shared/answer-body.ts): past it, `AnswerTooLarge`; an error's
 * only for its start, which holds its `error` code.
 */
async function readPayload(res: Response): Promise<Record<string, unknown>> {
  const text = res.ok ? await readAnswerText(res) : await readAnswerStart(res);
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** A third party's error code, safe to put in our redirect; anything else becomes `fallback`. */
export const safeErrorCode = (value: unknown, fallback: string) =>
  typeof value === 'string' && ERROR_CODE.test(value) ? value : fallback;

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  tokenType?: string;
  expiresIn?: number;
  scopes?: string[];
}

/**
 * A token endpoint's answer. `refused` is the grant itself refused (RFC 6749 §5.2
 * `invalid_grant` with a 4xx): the code or refresh token will never work, so only connecting
 * again helps; anything else (a 5xx, no answer, an answer we cannot read) may work next time.
 */
export type Exchange =
  { ok: true; tokens: TokenSet } | { ok: false; error: string; refused: boolean };

/** Longer than any token a platform issues, short of filling a row with whatever it sends. */
const MAX_TOKEN = 16_384;
/** Beyond this an `expires_in` is nonsense (and past the dates a timestamp holds): ignored. */
const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 86_400;

/**
 * The successful answer (RFC 6749 §5.1). The access token is required; an optional field of
 * the wrong type is dropped rather than failing the grant, as platforms add and vary them.
 * `expires_in` may be a string where the answer was a form.
 */
const ZTokenAnswer = z.object({
  access_token: z.string().min(1).max(MAX_TOKEN),
  refresh_token: z.string().min(1).max(MAX_TOKEN).optional().catch(undefined),
  token_type: z.string().max(64).optional().catch(undefined),
  expires_in: z.coerce.number().positive().max(MAX_EXPIRES_IN_SECONDS).optional().catch(undefined),
  scope: z.string().max(MAX_TOKEN).optional().catch(undefined),
});

/**
 * One request to a token endpoint (`url`) with `grant` and our client authentication as the
 * platform wants it (the code grant and the refresh grant differ only in `grant`, and in the
 * endpoint for a platform that refreshes at one of its own).
 */
async function requestTokens(
  entry: OAuthEntry,
  provider: ConfiguredProvider,
  url: string,
  grant: Record<string, string>,
): Promise<Exchange> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  authenticateClient(entry, provider, body, headers);
  let res: Response;
  let payload: Record<string, unknown>;
  try {
    res = await request(provider, url, { method: 'POST', headers, body });
    payload = await readPayload(res);
  } catch (error) {
    const code = error instanceof TargetRefused ? 'service_url_refused' : 'provider_unreachable';
    return { ok: false, error: code, refused: false };
  }
  const answer = res.ok ? ZTokenAnswer.safeParse(payload) : undefined;
  if (!answer?.success) {
    const error = safeErrorCode(payload.error, 'token_exchange_failed');
    const refused = res.status >= 400 && res.status < 500 && error === 'invalid_grant';
    return { ok: false, error, refused };
  }
  const tokens = answer.data;
  return {
    ok: true,
    tokens: {
      accessToken: tokens.access_token,
      ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
      ...(tokens.token_type ? { tokenType: tokens.token_type } : {}),
      ...(tokens.expires_in ? { expiresIn: tokens.expires_in } : {}),
      ...(tokens.scope ? { scopes: tokens.scope.split(/[\s,]+/).filter(Boolean) } : {}),
    },
  };
}

/** The authorization code grant (RFC 6749 §4.1.3), with the PKCE verifier. */
export const exchangeCode = (
  entry: OAuthEntry,
  provider: ConfiguredProvider,
  grant: { code: string; verifier: string; callbackUrl: string },
): Promise<Exchange> =>
  requestTokens(entry, provider, provider.tokenUrl, {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: grant.callbackUrl,
    code_verifier: grant.verifier,
  });

/**
 * The refresh grant (RFC 6749 §6), for the scopes first granted, at the platform's refresh URL
 * (its token endpoint unless it has one for refreshes). A platform that rotates refresh
 * tokens answers a new one; one that does not answers none.
 */
export const refreshGrant = (
  entry: OAuthEntry,
  provider: ConfiguredProvider,
  refreshToken: string,
): Promise<Exchange> =>
  requestTokens(entry, provider, provider.refreshUrl, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });

/** Every value at `path` (see JsonPath). */
export function pick(value: unknown, path: JsonPath): unknown[] {
  let found: unknown[] = [value];
  for (const segment of path.split('.')) {
    const every = segment.endsWith('[]');
    const key = every ? segment.slice(0, -2) : segment;
    found = found.flatMap((item) => {
      const next =
        typeof item === 'object' && item !== null
          ? (item as Record<string, unknown>)[key]
          : undefined;
      if (every) return Array.isArray(next) ? next : [];
      return next === undefined ? [] : [next];
    });
  }
  return found;
}

/**
 * The profile's strings as clean lines: a third party's name may hold a NUL (which jsonb cannot
 * store) or other control characters, which are no part of a name shown on a page.
 */
const strings = (values: unknown[]) =>
  values
    .filter((v): v is string => typeof v === 'string')
    .map(cleanLine)
    .filter((v) => v !== '');

/** `meta` from the third party's profile; a profile that fails leaves it empty, not the flow. */
export async function fetchProfile(
  entry: OAuthEntry,
  provider: ProviderSettings,
  accessToken: string,
): Promise<ConnectionMeta> {
  // docs/integrations.md: always a string; the platform's name when the profile says nothing.
  const empty = { accountName: entry.name, pages: [] };
  try {
    const res = await request(provider, provider.profileUrl, {
      method: entry.profile.method ?? 'GET',
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    if (!res.ok) return empty;
    const profile = await readPayload(res);
    const pages = entry.profile.pages ? strings(pick(profile, entry.profile.pages)) : [];
    return {
      accountName: strings(pick(profile, entry.profile.accountName))[0] ?? entry.name,
      pages,
    };
  } catch {
    return empty;
  }
}

/**
 * Best effort: asks the third party to revoke the grant (the refresh token when there is one,
 * which ends the whole grant at RFC 7009 providers). Never throws; true when it was accepted.
 */
export async function revokeTokens(
  entry: OAuthEntry,
  provider: ProviderSettings,
  tokens: TokenSet,
): Promise<boolean> {
  const url = provider.revokeUrl;
  if (!entry.revoke || !url) return false;
  try {
    if (entry.revoke.style === 'bearer') {
      const res = await request(provider, url, {
        method: entry.revoke.method,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      await res.body?.cancel();
      return res.ok;
    }
    const [token, hint] = tokens.refreshToken
      ? [tokens.refreshToken, 'refresh_token']
      : [tokens.accessToken, 'access_token'];
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
    };
    const { clientId, clientSecret } = provider;
    if (clientId && clientSecret) {
      authenticateClient(entry, { ...provider, clientId, clientSecret }, body, headers);
    }
    const res = await request(provider, url, { method: 'POST', headers, body });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
