import { randomUUID } from 'node:crypto';
import { appRouter, createCallerFactory } from '@chorus/api';
import type { Principal } from '@chorus/auth';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDatabase } from './database';
import { signInPath } from './return-path';
import { sessionPrincipal } from './session';

const createCaller = createCallerFactory(appRouter);

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
 * procedures (and so the same rules) as the tRPC and REST doors.
 */
export async function dashboardCaller(returnTo: string) {
  const principal = await requirePrincipal(returnTo);
  const { db } = await getDatabase();
  const host = (await headers()).get('host') ?? 'localhost';
  return createCaller({
    db,
    principal,
    requestId: `req_${randomUUID().replaceAll('-', '')}`,
    origin: `http://${host}`,
    response: {},
  });
}

/** The procedures as the signed-in user, as pages and server actions hold them. */
export type DashboardCaller = Awaited<ReturnType<typeof dashboardCaller>>;
