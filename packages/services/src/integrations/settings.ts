import { createHash } from 'node:crypto';
import { readSetting } from '@chorus/settings';
import { AppError } from '../shared/errors';
import { CATALOGUE, type CatalogueEntry, type OAuthEntry } from './catalogue';

/**
 * The integrations' configuration, read from the environment in this one place:
 *
 * - CHORUS_PUBLIC_URL: the origin browsers and third parties reach us on; default the
 *   origin of the request being served.
 * - CHORUS_ENCRYPTION_KEY: 32 bytes (64 hex digits or base64) encrypting credentials at rest.
 * - CHORUS_INTEGRATION_<ID>_CLIENT_ID / _CLIENT_SECRET: our app at the third party.
 * - CHORUS_INTEGRATION_REDIRECT_ORIGINS: origins (comma-separated) besides our own that
 *   `redirectUrl` may name (docs/integrations.md: no open redirect through the callback).
 * - CHORUS_INTEGRATION_<ID>_AUTHORIZE_URL / _TOKEN_URL / _REFRESH_URL / _PROFILE_URL /
 *   _REVOKE_URL: the third party's addresses, defaulting to the real provider's (the refresh
 *   grant's to the catalogue's `refresh`, else to the token URL).
 * - CHORUS_INTEGRATION_<ID>_API_URL: a publishing network's API base URL (publishing/context.ts).
 * - CHORUS_INTEGRATION_<ID>_METRICS_URL: where the analytics sync reads per-post daily figures
 *   (docs/analytics.md); unset, the integration is not synced.
 */
type Env = Record<string, string | undefined>;

const read = (env: Env, name: string) => env[name]?.trim() || undefined;

/** `google-drive` → `CHORUS_INTEGRATION_GOOGLE_DRIVE_`. */
export const envPrefix = (id: string) =>
  `CHORUS_INTEGRATION_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;

export interface ProviderSettings {
  clientId: string | undefined;
  clientSecret: string | undefined;
  authorizeUrl: string;
  tokenUrl: string;
  /** Where the refresh grant goes: the token URL unless the platform has an endpoint for it. */
  refreshUrl: string;
  profileUrl: string;
  revokeUrl: string | undefined;
  metricsUrl: string | undefined;
  /**
   * The URLs are on a server a user chose (a Mastodon instance), not the operator's: each
   * request goes through the webhooks' rule (publishing/service-url.ts). Absent: trusted.
   */
  guarded?: boolean;
}

export function providerSettings(entry: OAuthEntry, env: Env = process.env): ProviderSettings {
  const prefix = envPrefix(entry.id);
  const tokenUrl = read(env, `${prefix}TOKEN_URL`) ?? entry.urls.token;
  return {
    clientId: read(env, `${prefix}CLIENT_ID`),
    clientSecret: read(env, `${prefix}CLIENT_SECRET`),
    authorizeUrl: read(env, `${prefix}AUTHORIZE_URL`) ?? entry.urls.authorize,
    tokenUrl,
    refreshUrl: read(env, `${prefix}REFRESH_URL`) ?? entry.urls.refresh ?? tokenUrl,
    profileUrl: read(env, `${prefix}PROFILE_URL`) ?? entry.urls.profile,
    revokeUrl: read(env, `${prefix}REVOKE_URL`) ?? entry.urls.revoke,
    metricsUrl: read(env, `${prefix}METRICS_URL`),
  };
}

export type ConfiguredProvider = ProviderSettings & { clientId: string; clientSecret: string };

/** The provider's settings, or 400 integration_not_configured naming what to set. */
export function configuredProvider(entry: OAuthEntry, env: Env = process.env): ConfiguredProvider {
  const settings = providerSettings(entry, env);
  const { clientId, clientSecret } = settings;
  if (clientId && clientSecret) return { ...settings, clientId, clientSecret };
  const missing = [
    ...(clientId ? [] : [`${envPrefix(entry.id)}CLIENT_ID`]),
    ...(clientSecret ? [] : [`${envPrefix(entry.id)}CLIENT_SECRET`]),
  ];
  throw new AppError(
    'integration_not_configured',
    `${entry.name} is not configured on this deployment: set ${missing.join(' and ')}.`,
    { missing },
  );
}

/** The origin in absolute URLs we hand out (icons, the OAuth callback): configured or the request's. */
export function appOrigin(requestOrigin: string, env: Env = process.env): string {
  const configured = read(env, 'CHORUS_PUBLIC_URL');
  return configured ? new URL(configured).origin : requestOrigin;
}

/** Origins, besides our own, that a connection's `redirectUrl` may return the browser to. */
export function redirectOrigins(env: Env = process.env): string[] {
  return (read(env, 'CHORUS_INTEGRATION_REDIRECT_ORIGINS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      if (!isHttpUrl(entry)) {
        throw new Error(
          `CHORUS_INTEGRATION_REDIRECT_ORIGINS: "${entry}" is not an absolute http(s) origin.`,
        );
      }
      return new URL(entry).origin;
    });
}

/** Refuses a `redirectUrl` off our origin and the allow-list (400 naming `redirectUrl`). */
export function assertRedirectAllowed(
  redirectUrl: string,
  ownOrigin: string,
  env: Env = process.env,
) {
  const { origin } = new URL(redirectUrl);
  if (origin === ownOrigin || redirectOrigins(env).includes(origin)) return;
  throw new AppError('validation_error', 'redirectUrl must be on an allowed origin.', {
    issues: [
      {
        path: 'redirectUrl',
        message: `${origin} is neither this service's origin nor listed in CHORUS_INTEGRATION_REDIRECT_ORIGINS.`,
      },
    ],
  });
}

export interface EncryptionKey {
  key: Buffer;
  /** True when derived from a fixed phrase because no key is configured (never in production). */
  development: boolean;
}

const DEVELOPMENT_KEY = createHash('sha256').update('chorus development encryption key').digest();

function decodeKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
  return undefined;
}

/**
 * The key that encrypts third-party credentials. A malformed key is always an error; a
 * missing one is an error in production and the development key elsewhere.
 */
export function readEncryptionKey(env: Env = process.env): EncryptionKey {
  const value = read(env, 'CHORUS_ENCRYPTION_KEY');
  if (value) {
    const key = decodeKey(value);
    if (key?.length !== 32) {
      throw new Error(
        'CHORUS_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or as base64 (e.g. the output of `openssl rand -base64 32`).',
      );
    }
    return { key, development: false };
  }
  if (env.NODE_ENV === 'production') {
    throw new Error(
      'CHORUS_ENCRYPTION_KEY is not set: production needs it to encrypt third-party credentials (generate one with `openssl rand -base64 32`).',
    );
  }
  return { key: DEVELOPMENT_KEY, development: true };
}

const isHttpUrl = (value: string) => /^https?:\/\//.test(value) && URL.canParse(value);

const urlProblems = (entry: CatalogueEntry, env: Env) => {
  const apiUrl = read(env, `${envPrefix(entry.id)}API_URL`);
  const apiProblem =
    apiUrl !== undefined && !isHttpUrl(apiUrl) ? [`${envPrefix(entry.id)}API_URL`] : [];
  if (entry.authMethod !== 'oauth2') return apiProblem;
  const settings = providerSettings(entry, env);
  const fields = [
    'authorizeUrl',
    'tokenUrl',
    'refreshUrl',
    'profileUrl',
    'revokeUrl',
    'metricsUrl',
  ] as const;
  return fields
    .filter((field) => {
      const value = settings[field];
      return value !== undefined && !isHttpUrl(value);
    })
    .map((field) => `${envPrefix(entry.id)}${field.replace(/Url$/, '').toUpperCase()}_URL`)
    .concat(apiProblem);
};

/**
 * Checks the integrations' configuration at start-up: `errors` must stop the process,
 * `warnings` should be logged. Names settings only, never their values.
 */
export function integrationConfigReport(env: Env = process.env) {
  const errors: string[] = [];
  const warnings: string[] = [];
  try {
    if (readEncryptionKey(env).development) {
      warnings.push(
        'CHORUS_ENCRYPTION_KEY is not set: third-party credentials are encrypted with a development key. Set it before storing real credentials.',
      );
    }
  } catch (error) {
    errors.push((error as Error).message);
  }
  for (const check of [() => readSetting('CHORUS_PUBLIC_URL', env), () => redirectOrigins(env)]) {
    try {
      check();
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  for (const entry of CATALOGUE) {
    for (const name of urlProblems(entry, env)) {
      errors.push(`${name} must be an absolute http(s) URL.`);
    }
  }
  return { errors, warnings };
}
