/**
 * What each child of `npm start` is given: only the settings it reads. The worker runs in
 * the supervisor's own process and reads its settings there.
 */
import { childEnv, type SettingName, type Settings } from '@chorus/settings';

/** What the API's doors and the dashboard both read: the data, its secrets, the services' rules. */
const DOMAIN: SettingName[] = [
  'LOG_LEVEL',
  'CHORUS_PUBLIC_URL',
  'CHORUS_TRUSTED_PROXIES',
  'DATABASE_URL',
  'DATABASE_POOL_MAX',
  'CHORUS_DATA_DIR',
  'CHORUS_ENCRYPTION_KEY',
  'NEXTAUTH_SECRET',
  'CHORUS_OAUTH_GRANT_LIFETIME_DAYS',
  'CHORUS_INTEGRATION_REDIRECT_ORIGINS',
  'CHORUS_MEDIA_MAX_BYTES',
  'CHORUS_STORAGE',
  'CHORUS_STORAGE_DIR',
  'CHORUS_S3_BUCKET',
  'CHORUS_S3_ENDPOINT',
  'CHORUS_S3_REGION',
  'CHORUS_S3_ACCESS_KEY_ID',
  'CHORUS_S3_SECRET_ACCESS_KEY',
  'CHORUS_S3_FORCE_PATH_STYLE',
  'CHORUS_S3_PREFIX',
  'REDIS_URL',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'RATE_LIMITS',
  'RATE_LIMIT_TIMEOUT_MS',
  'RATE_LIMIT_PREFIX',
  'CHORUS_WEBHOOK_RETRY_SCHEDULE',
  'CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'CHORUS_WEBHOOK_LEASE_SECONDS',
  'CHORUS_WEBHOOK_MAX_PER_ACCOUNT',
  'CHORUS_PUBLISHING_LEASE_SECONDS',
  'CHORUS_PUBLISHING_BACKOFF_MS',
  'CHORUS_PUBLISHING_TIMEOUT_SECONDS',
  'CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS',
];

interface Given {
  env: Record<string, string | undefined>;
  settings: Settings;
  nodeEnv: 'development' | 'production';
  /** The embedded database's URL, whose clients must not prepare statements (@chorus/db). */
  embeddedUrl?: string;
}

/** The HTTP server (src/serve.ts), which owns the port and serves the API's doors. */
export const apiEnv = (given: Given) =>
  childEnv({
    ...given,
    names: [...DOMAIN, 'PORT', 'CHORUS_CORS_ORIGINS', 'CHORUS_TRPC_MAX_BATCH'],
    integrations: true,
    extra: { CHORUS_EMBEDDED_DATABASE_URL: given.embeddedUrl },
  });

/**
 * Next (apps/web/scripts/serve-web.ts), started by the HTTP server with this environment:
 * next-auth's base URL is for it alone. Without one, next-auth takes each request's Host (the
 * sign-in page never follows a URL it did not check itself).
 */
export function webEnv(given: Given) {
  const { settings } = given;
  const authUrl =
    settings.NEXTAUTH_URL ??
    (settings.CHORUS_PUBLIC_URL ? new URL(settings.CHORUS_PUBLIC_URL).origin : undefined);
  return childEnv({
    ...given,
    names: DOMAIN,
    integrations: true,
    extra: {
      CHORUS_EMBEDDED_DATABASE_URL: given.embeddedUrl,
      NEXTAUTH_URL: authUrl,
      AUTH_TRUST_HOST: authUrl ? undefined : 'true',
      // Next's own switch, not a setting of ours: kept when the user set it.
      NEXT_TELEMETRY_DISABLED: given.env.NEXT_TELEMETRY_DISABLED,
    },
  });
}
