import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { AppError } from '@chorus/services';
import { defaultRateLimiter, principalBucket, type RateLimiter } from '../rate-limit';
import { accessRuleOf, isReadProcedure } from '../trpc/access-rules';
import { createCallerFactory } from '../trpc/init';
import { appRouter } from '../trpc/root';
import { toTrpcError } from './errors';
import { checkAccess, spendBudget } from './pipeline';

const createCaller = createCallerFactory(appRouter);

export interface ServerCallerOptions {
  db: Db;
  /** The signed-in user: server calls are never anonymous. */
  principal: Principal;
  requestId: string;
  origin: string;
  /** Counts calls; by default the process's, shared with the doors. */
  rateLimiter?: RateLimiter;
}

/** Runs `admit` with a call's dotted path before each call the caller makes, however deep. */
function admitting<T>(target: T, path: string[], admit: (path: string) => Promise<void>): T {
  return new Proxy(target as object, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      // tRPC's caller is a tree of callable proxies; anything else (`then`) is passed through.
      return typeof key === 'string' && typeof value === 'function'
        ? admitting(value, [...path, key], admit)
        : value;
    },
    async apply(fn, self, args: unknown[]) {
      await admit(path.join('.'));
      return Reflect.apply(fn as (...a: unknown[]) => unknown, self, args) as unknown;
    },
  }) as T;
}

/**
 * The procedures as called by the web app's own server (the dashboard's pages and server
 * actions), through the same rate-limit and access stages as every door's request
 * (server/pipeline.ts): every call is checked against the procedure's `meta.access` before it
 * runs, and the caller's first query spends one read of the user's session budget, as the tRPC
 * door counts a session's GET. A caller serves one page view (or one action), so a page counts
 * as one read however many procedures it calls: the integrations page calls about twenty, and
 * counting each let some thirty views a minute spend a whole account's reads. A mutation spends
 * nothing here: mutations run only in server actions, and the action was counted once against
 * the write budget where it arrived, at the port (apps/server/src/web-budgets.ts); counting its
 * calls again would charge one click twice.
 */
export function createServerCaller({
  rateLimiter = defaultRateLimiter(),
  ...context
}: ServerCallerOptions): ReturnType<typeof createCaller> {
  const caller = createCaller({ ...context, response: {} });
  // Shared by every query of the caller, those made at once included: one spend, and its
  // refusal refuses them all.
  let read: Promise<void> | undefined;
  const spendRead = () => {
    const bucket = principalBucket(context.principal, 'GET', rateLimiter.limits);
    return spendBudget(rateLimiter, bucket, {}, new Headers());
  };
  return admitting(caller, [], async (path) => {
    try {
      if (isReadProcedure(path)) await (read ??= spendRead());
      checkAccess(context.principal, [accessRuleOf(path) ?? {}]);
    } catch (error) {
      // As the procedure's own tier throws it: pages tell a refusal by its tRPC code
      // (FORBIDDEN sends a member home from an admin page).
      throw error instanceof AppError ? toTrpcError(error) : error;
    }
  });
}
