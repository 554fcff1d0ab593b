import { oauthMounts } from '../oauth/mounts';
import { createRestDoor, type RestHandlerOptions } from '../rest/handler';
import type { FetchHandler } from './listener';
import { createTrpcHandler } from './trpc-door';

/** The database, the session lookup, and the process's limiter unless one is given: one budget per caller whatever the door. */
export type ApiRoutesOptions = RestHandlerOptions;

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
