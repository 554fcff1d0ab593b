import type { Principal } from '@chorus/auth';
import { and, desc, eq, isNull, oauthClients, oauthGrants, sql, type Db } from '@chorus/db';
import type { AuthorizedApp, Scope } from '@chorus/validators';
import { notFound } from '../shared/errors';

/** The principal's own grants that still stand (not revoked). */
const liveGrantsOf = (principal: Principal) =>
  and(
    eq(oauthGrants.accountId, principal.accountId),
    eq(oauthGrants.userId, principal.userId),
    isNull(oauthGrants.revokedAt),
  );

/**
 * The OAuth applications the signed-in user has authorized, one row per application: consent
 * is asked every time, so one application may hold several grants; the user sees their scopes
 * together and the first and last time they said yes.
 */
export async function listAuthorizedApps(opts: {
  db: Db;
  principal: Principal;
}): Promise<AuthorizedApp[]> {
  const rows = await opts.db
    .select({ grant: oauthGrants, name: oauthClients.name })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(liveGrantsOf(opts.principal))
    .orderBy(desc(oauthGrants.createdAt));
  const apps = new Map<string, AuthorizedApp>();
  // Newest grant first: the first row of an application sets its last authorization.
  for (const { grant, name } of rows) {
    const at = grant.createdAt.toISOString();
    const app = apps.get(grant.clientId) ?? {
      clientId: grant.clientId,
      name,
      scopes: [],
      firstAuthorizedAt: at,
      lastAuthorizedAt: at,
    };
    app.firstAuthorizedAt = at;
    app.scopes = [...new Set([...app.scopes, ...(grant.scopes as Scope[])])].sort();
    apps.set(grant.clientId, app);
  }
  return [...apps.values()];
}

/**
 * Takes back the user's authorization of one application: every grant ends, and with it every
 * access and refresh token issued under it (authentication checks the grant). Another user's
 * or an unknown application is 404.
 */
export async function revokeAuthorizedApp(opts: {
  db: Db;
  principal: Principal;
  clientId: string;
}) {
  const revoked = await opts.db
    .update(oauthGrants)
    .set({ revokedAt: sql`now()` })
    .where(and(liveGrantsOf(opts.principal), eq(oauthGrants.clientId, opts.clientId)))
    .returning({ id: oauthGrants.id });
  if (revoked.length === 0) throw notFound('Authorized application');
  return { clientId: opts.clientId, revokedGrants: revoked.length };
}
