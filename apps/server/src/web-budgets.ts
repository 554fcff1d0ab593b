/**
 * The rate-limit budgets of requests the app's server forwards to Next, counted in the same
 * limiter (and store) as the API's doors: sign-in attempts per address, and the dashboard's
 * server actions in the signed-in user's session budget, the one the tRPC door spends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { anonymousBucket, callerBucket, clientIp, type RateLimiter } from '@chorus/api';
import { apiError, refuse } from '@chorus/api/server';
import type { Principal } from '@chorus/auth';

export interface BudgetOptions {
  /** The process's limiter, shared with the REST and tRPC doors. */
  rateLimiter: RateLimiter;
  /** The dashboard session of a same-origin request (as the doors accept it), or null. */
  sessionPrincipal?: (req: Request) => Promise<Principal | null>;
}

/** The sign-in form's target: every request to it runs argon2. */
const SIGN_IN = '/api/auth/callback/credentials';

export const requestId = (req: IncomingMessage) => {
  const id = req.headers['x-request-id'];
  return typeof id === 'string' ? id : undefined;
};

/** The request's headers as fetch Headers, for the helpers the doors use. */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
    } catch {
      // A header fetch refuses counts as absent here; Next gets the request as sent.
    }
  }
  return headers;
}

/**
 * A page's only POSTs are server actions (next-auth lives under /api/auth, the OAuth endpoints
 * under /oauth, each with throttles of its own).
 */
const isServerAction = (method: string, path: string) =>
  method !== 'GET' &&
  method !== 'HEAD' &&
  method !== 'OPTIONS' &&
  !(path === '/api' || path.startsWith('/api/')) &&
  !path.startsWith('/oauth/');

/** What the request is counted against, with what to call it in a refusal; null: not counted. */
async function bucketOf(req: IncomingMessage, path: string, options: BudgetOptions) {
  const { limits } = options.rateLimiter;
  const method = req.method ?? 'GET';
  const signIn = method === 'POST' && path === SIGN_IN;
  if (!signIn && !isServerAction(method, path)) return null;
  const headers = headersOf(req);
  const anonymous = anonymousBucket(
    clientIp(new Request('http://localhost/', { headers })),
    limits,
  );
  // Its own budget beside the API's anonymous one, of the same figure per minute.
  if (signIn)
    return { bucket: { ...anonymous, key: `sign-in:${anonymous.key}` }, what: 'sign-in attempts' };
  const host = headers.get('host') ?? 'localhost';
  const request = new Request(`http://${host}${path}`, { method, headers });
  const principal = (await options.sessionPrincipal?.(request)) ?? null;
  return { bucket: callerBucket(request, principal, limits), what: 'requests' };
}

/**
 * Counts the request when it has a budget and sets the rate-limit headers; over the budget,
 * answers 429 in the envelope (with Retry-After) and resolves false.
 */
export async function admit(
  req: IncomingMessage,
  res: ServerResponse,
  options: BudgetOptions,
): Promise<boolean> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const counted = await bucketOf(req, path, options);
  if (!counted) return true;
  const decision = await options.rateLimiter.check(counted.bucket);
  const rate = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.reset / 1000)),
  };
  if (decision.success) {
    for (const [name, value] of Object.entries(rate)) res.setHeader(name, value);
    return true;
  }
  const retryAfter = Math.max(1, Math.ceil((decision.reset - Date.now()) / 1000));
  refuse(
    res,
    requestId(req),
    apiError(
      'rate_limit_exceeded',
      `Too many ${counted.what}: ${decision.limit} per minute. Retry after ${retryAfter} s.`,
      { limit: decision.limit, retryAfter },
    ),
    { ...rate, 'Retry-After': String(retryAfter), Connection: 'close' },
  );
  return false;
}
