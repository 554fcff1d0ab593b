/** RFC 6749 §3.2: codes and refresh tokens for access tokens. */
import { oauthEndpoints } from '~/server/oauth-endpoints';

export const dynamic = 'force-dynamic';

export const POST = oauthEndpoints.token;
