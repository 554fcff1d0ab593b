import { createTrpcHandler } from '@chorus/api';
import { getDatabase } from './database';
import { requestSessionPrincipal } from './session';

/**
 * The tRPC door (mounted at /api/trpc by scripts/serve.ts): bearer tokens, or the dashboard
 * session from the dashboard's own origin.
 */
export const handleTrpc = createTrpcHandler({
  getDatabase,
  sessionPrincipal: requestSessionPrincipal,
});
