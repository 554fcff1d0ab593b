import { createRestHandler } from '@chorus/api/rest';
import { getDatabase } from '~/server/database';
import { requestSessionPrincipal } from '~/server/session';

export const dynamic = 'force-dynamic';

// The session counts only on the routes that accept it (media bytes and upload), for the dashboard.
const handleRest = createRestHandler({ getDatabase, sessionPrincipal: requestSessionPrincipal });

export {
  handleRest as GET,
  handleRest as POST,
  handleRest as PUT,
  handleRest as PATCH,
  handleRest as DELETE,
  handleRest as HEAD,
  handleRest as OPTIONS,
};
