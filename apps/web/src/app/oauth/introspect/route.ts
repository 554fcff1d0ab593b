/** RFC 7662: what a token is worth now, for the client it was issued to. */
import { oauthEndpoints } from '~/server/oauth-endpoints';

export const dynamic = 'force-dynamic';

export const POST = oauthEndpoints.introspect;
