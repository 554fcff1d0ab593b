import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { AppError } from '@chorus/services';

/**
 * The dashboard session's principal: null when the request carries no session or does not come
 * from the dashboard's own pages (same origin), so a cross-site page cannot ride on it.
 */
export type SessionLookup = (req: Request) => Promise<Principal | null>;

/**
 * Who is calling, for every door: a bearer token always wins (an invalid one is no caller, never
 * a fallback to the session); without one, the dashboard session where the route accepts it.
 */
export async function principalFor(
  req: Request,
  db: Db,
  session?: () => Promise<Principal | null>,
): Promise<Principal | null> {
  const token = bearerToken(req.headers.get('authorization'));
  if (token) return authenticateBearer(db, token);
  return (await session?.()) ?? null;
}

/** The same, where a caller is required: 401 `unauthorized`, saying what was wrong. */
export async function requirePrincipal(
  req: Request,
  db: Db,
  session?: () => Promise<Principal | null>,
): Promise<Principal> {
  const principal = await principalFor(req, db, session);
  if (principal) return principal;
  throw bearerToken(req.headers.get('authorization'))
    ? new AppError('unauthorized', 'The credentials are invalid, expired or revoked.')
    : new AppError('unauthorized', 'Send credentials as "Authorization: Bearer <token>".');
}
