import { days, flag, oneOf, text, url, whole } from './kinds';

/**
 * The HTTP server's settings (docs/configuration.md). A `text()` entry is parsed further by
 * the package that owns it, with the others of its group (the parser named beside it).
 */
export const serverSettings = {
  PORT: whole({
    min: 0,
    max: 65_535,
    fallback: 3000,
    message: 'PORT must be a port number (0 to 65535).',
  }),
  CHORUS_PUBLIC_URL: url(['http', 'https'], 'CHORUS_PUBLIC_URL must be an absolute http(s) URL.'),
  NEXTAUTH_URL: url(['http', 'https'], 'NEXTAUTH_URL must be an absolute http(s) URL.'),
  /** @chorus/api's trustedProxiesFromEnv. */
  CHORUS_TRUSTED_PROXIES: text(),
  /** @chorus/api's corsOriginsFromEnv. */
  CHORUS_CORS_ORIGINS: text(),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'], 'info'),
  CHORUS_WORKER: flag('CHORUS_WORKER', true),
  CHORUS_TRPC_MAX_BATCH: whole({
    min: 1,
    max: 1000,
    fallback: 20,
    message: 'CHORUS_TRPC_MAX_BATCH must be a whole number from 1 to 1000.',
  }),
  CHORUS_OAUTH_GRANT_LIFETIME_DAYS: days(
    'CHORUS_OAUTH_GRANT_LIFETIME_DAYS must be a number of days above 0 (e.g. 90).',
    3650,
    90,
  ),
};
