import { createOAuthEndpoints } from '@chorus/api/oauth';
import { getDatabase } from './database';

/** The authorization server's machine endpoints over the process's database. */
export const oauthEndpoints = createOAuthEndpoints({ getDatabase });
