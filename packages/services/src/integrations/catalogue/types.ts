import type { IntegrationCategory, IntegrationStatus } from '@chorus/validators';

interface EntryBase {
  /** A slug: used in paths, icon file names and environment variable names. */
  id: string;
  name: string;
  type: IntegrationCategory;
  description: string;
  status: IntegrationStatus;
  setupSteps: string[];
}

/**
 * Where a value sits in a JSON document: dot-separated keys, `[]` after a key to take every
 * element of an array (`accounts.data[].name`).
 */
export type JsonPath = string;

/** A third party we connect to with OAuth 2.0 (RFC 6749 authorization code, PKCE RFC 7636). */
export interface OAuthEntry extends EntryBase {
  authMethod: 'oauth2';
  scopes: string[];
  /** RFC 6749 says spaces; some providers (Facebook) want commas. Default ' '. */
  scopeSeparator?: ' ' | ',';
  /** How we authenticate at the token endpoint (RFC 6749 §2.3.1). Default client_secret_post. */
  clientAuth?: 'client_secret_post' | 'client_secret_basic';
  /** Extra query parameters of the authorize step, e.g. Google's offline access. */
  authorizeParams?: Record<string, string>;
  /**
   * The real provider's addresses: defaults that the environment can override (settings.ts).
   * `refresh`: where the refresh grant goes when not to `token` (Figma's refresh endpoint).
   */
  urls: { authorize: string; token: string; profile: string; revoke?: string; refresh?: string };
  /** How the profile is read and what `meta` takes from it. */
  profile: { method?: 'GET' | 'POST'; accountName: JsonPath; pages?: JsonPath };
  /**
   * How the provider revokes a token: RFC 7009 (form `token=` with our client credentials), or
   * a request carrying the token as a bearer (Facebook, Dropbox).
   */
  revoke?: { style: 'rfc7009' } | { style: 'bearer'; method: 'POST' | 'DELETE' };
}

/** A third party the account connects by pasting an API key of its own. */
export interface ApiKeyEntry extends EntryBase {
  authMethod: 'api_key';
}

export type CatalogueEntry = OAuthEntry | ApiKeyEntry;
