import { readSetting } from '@chorus/settings';
import { NETWORKS, type Network } from '@chorus/validators';
import { findEntry } from '../../integrations/catalogue';
import { envPrefix, providerSettings } from '../../integrations/settings';
import type { ProviderContext, ProviderCredentials } from '../provider';

type Env = Record<string, string | undefined>;

/**
 * The engine's configuration (docs/publishing.md, "Configuration"), read in this one place:
 *
 * - CHORUS_PUBLISHING_LEASE_SECONDS (default 60): a target left `publishing` this long without
 *   a heartbeat from its worker is taken as abandoned (the worker crashed).
 * - CHORUS_PUBLISHING_BACKOFF_MS (default 15000): the first retry's delay; each next one is 4×.
 * - CHORUS_PUBLISHING_TIMEOUT_SECONDS (default 600): one attempt's network calls are aborted
 *   after this (an unknown outcome).
 * - CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS (default 900): tokens expiring within this are
 *   refreshed by the periodic job, before a publish needs them.
 * - CHORUS_INTEGRATION_<ID>_API_URL: a network's API base URL (the real one by default).
 */
export interface PublishingSettings {
  leaseMs: number;
  backoffMs: number;
  timeoutMs: number;
  refreshAheadMs: number;
  /** At most 5 attempts within 30 minutes of the first (docs/publishing.md#retry-and-resolve). */
  maxAttempts: number;
  windowMs: number;
}

export function publishingSettings(env: Env = process.env): PublishingSettings {
  return {
    leaseMs: readSetting('CHORUS_PUBLISHING_LEASE_SECONDS', env) * 1000,
    backoffMs: readSetting('CHORUS_PUBLISHING_BACKOFF_MS', env),
    timeoutMs: readSetting('CHORUS_PUBLISHING_TIMEOUT_SECONDS', env) * 1000,
    refreshAheadMs: readSetting('CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS', env) * 1000,
    maxAttempts: 5,
    windowMs: 30 * 60_000,
  };
}

/** Each network's API as the real network serves it (the Graph hosts versioned). */
const DEFAULT_API_URLS: Record<Network, string> = {
  bluesky: 'https://bsky.social',
  mastodon: 'https://mastodon.social',
  x: 'https://api.x.com',
  linkedin: 'https://api.linkedin.com',
  facebook: 'https://graph.facebook.com/v21.0',
  instagram: 'https://graph.instagram.com/v21.0',
  threads: 'https://graph.threads.net/v1.0',
};

/** The network an integration publishes to, or null for integrations that do not publish. */
export const networkOf = (integrationId: string): Network | null =>
  (NETWORKS as readonly string[]).includes(integrationId) ? (integrationId as Network) : null;

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/**
 * Where and how a provider reaches its network for a channel: the connection's own server
 * (a Bluesky PDS, a Mastodon instance) when its credentials name one, else the configured or
 * real API; our OAuth app where the network has one, for refreshing. The own server is a
 * user's choice, `guarded` (docs/publishing.md, Channels), unless it is the operator's API
 * itself (a Bluesky session keeps the API it was opened on as its `serviceUrl`).
 */
export function providerContext(
  network: Network,
  credentials: ProviderCredentials,
  env: Env = process.env,
): ProviderContext {
  const own = credentials.extra?.serviceUrl ?? credentials.extra?.instanceUrl;
  const operators = env[`${envPrefix(network)}API_URL`]?.trim() || DEFAULT_API_URLS[network];
  const apiUrl = own ?? operators;
  const guarded = own !== undefined && originOf(own) !== originOf(operators);
  const where = guarded ? { apiUrl, guarded } : { apiUrl };
  const entry = findEntry(network);
  if (entry?.authMethod === 'oauth2') {
    const settings = providerSettings(entry, env);
    if (settings.clientId && settings.clientSecret) {
      return {
        ...where,
        oauth: {
          tokenUrl: settings.tokenUrl,
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
        },
      };
    }
  }
  return where;
}
