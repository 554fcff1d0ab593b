import { randomUUID } from 'node:crypto';
import { createServerCaller } from '@chorus/api';
import type { Principal } from '@chorus/auth';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDatabase } from './database';
import { signInPath } from './return-path';
import { sessionPrincipal } from './session';

/** The signed-in user of the page being rendered, or null. */
export async function currentPrincipal(): Promise<Principal | null> {
  const jar = await cookies();
  return sessionPrincipal((name) => jar.get(name)?.value);
}

/** Pages that need a login send the browser to sign in, and back to `returnTo` afterwards. */
export async function requirePrincipal(returnTo: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect(signInPath(returnTo));
  return principal;
}

/**
 * The tRPC procedures as the signed-in user: pages and server actions call the same
 * procedures, under the same access and rate-limit rules, as the tRPC and REST doors. Make one
 * per page view or action: its first query spends one read of the user's session budget.
 */
export async function dashboardCaller(returnTo: string) {
  const principal = await requirePrincipal(returnTo);
  const { db } = await getDatabase();
  const host = (await headers()).get('host') ?? 'localhost';
  return createServerCaller({
    db,
    principal,
    requestId: `req_${randomUUID().replaceAll('-', '')}`,
    origin: `http://${host}`,
  });
}

/** The procedures as the signed-in user, as pages and server actions hold them. */
export type DashboardCaller = Awaited<ReturnType<typeof dashboardCaller>>;
