import { createRestHandler } from '@chorus/api/rest';
import { getDatabase } from '~/server/database';

export const dynamic = 'force-dynamic';

const handleRest = createRestHandler({ getDatabase });

export {
  handleRest as GET,
  handleRest as POST,
  handleRest as PUT,
  handleRest as PATCH,
  handleRest as DELETE,
  handleRest as HEAD,
  handleRest as OPTIONS,
};
