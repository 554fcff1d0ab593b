import type { Database } from '@chorus/db';
import { oauthMounts } from '../oauth/mounts';
import type { RateLimiter } from '../rate-limit';
import { createRestDoor } from '../rest/handler';
import type { FetchHandler } from './listener';
import type { SessionLookup } from './principal';
import { createTrpcHandler } from './trpc-door';

export interface ApiRoutesOptions {
  getDatabase: () => Promise<Database>;
  /** The dashboard session of a same-origin request, for the routes that accept it. */
  sessionPrincipal?: SessionLookup;
  /** By default the process's limiter: one budget per caller whatever the door. */
  rateLimiter?: RateLimiter;
}

/**
 * Every route the API serves, by kind, as the listener's mounts (tried in order): each door is
 * the one pipeline (server/pipeline.ts) with its protocol's table.
 *
 * - `/api/trpc`: tRPC calls, one route whose procedures the path names (a batch, several);
 * - the OAuth machine endpoints (`oauth/mounts.ts`: token, revoke, introspect, metadata);
 * - `/api`: REST, procedure routes and handler routes (uploads, media bytes, import and
 *   export) from one table (`rest/table.ts`).
 */
export function apiMounts(options: ApiRoutesOptions): [string, FetchHandler][] {
  return [
    ['/api/trpc', createTrpcHandler(options)],
    ...oauthMounts(options),
    ['/api', createRestDoor(options)],
  ];
}
