/**
 * The settings `npm start` parsed (@chorus/settings), checked further: the rule that joins two
 * of them, and each structured group (rate limits, proxies, CORS origins, the media store,
 * integrations, the webhook retry schedule) by the parser of the package that owns it. A
 * configuration that cannot work stops start-up here, naming the setting, not at a request.
 */
import {
  assertIntegrationConfig,
  assertMediaConfig,
  rateLimitConfigFromEnv,
  trustedProxiesFromEnv,
} from '@chorus/api';
import { corsOriginsFromEnv } from '@chorus/api/server';
import { webhookSettings } from '@chorus/services';
import type { Settings } from '@chorus/settings';

type Env = NodeJS.ProcessEnv;

export function checkSettings(env: Env, settings: Settings) {
  // Behind a deployment's proxy, the request's Host is whatever a client sent: links, the OAuth
  // issuer and the integrations' callback must come from configuration instead.
  if (env.NODE_ENV === 'production' && settings.DATABASE_URL && !settings.CHORUS_PUBLIC_URL) {
    throw new Error(
      'CHORUS_PUBLIC_URL is not set: with DATABASE_URL, set the public origin (e.g. https://chorus.example.com).',
    );
  }
  for (const check of [
    assertIntegrationConfig,
    rateLimitConfigFromEnv,
    trustedProxiesFromEnv,
    corsOriginsFromEnv,
    assertMediaConfig,
    webhookSettings,
  ])
    check(env);
}
