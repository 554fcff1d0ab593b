/** RFC 7009: a client gives up a token (a refresh token ends its whole grant). */
import { oauthEndpoints } from '~/server/oauth-endpoints';

export const dynamic = 'force-dynamic';

export const POST = oauthEndpoints.revoke;
