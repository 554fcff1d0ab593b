import { oauthEndpoints } from '~/server/oauth-endpoints';

export const dynamic = 'force-dynamic';

/** RFC 8414 metadata: endpoints on CHORUS_PUBLIC_URL or the request's origin, scopes, S256. */
export const GET = oauthEndpoints.metadata;
