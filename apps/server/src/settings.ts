/**
 * The settings `npm start` parsed (@chorus/settings), checked further: the rules that join
 * two settings, and the structured ones by the parsers of the packages that own them. A configuration that cannot
 * work stops start-up here, naming the setting, not at a request.
 */
import {
  assertIntegrationConfig,
  assertMediaConfig,
  rateLimitConfigFromEnv,
  trustedProxiesFromEnv,
} from '@chorus/api';
import { corsOriginsFromEnv } from '@chorus/api/server';
import {
  analyticsSyncCron,
  publishingTiming,
  schedulerTiming,
  webhookSweepTiming,
} from '@chorus/jobs';
import { grantLifetimeMs, publishingSettings, webhookSettings } from '@chorus/services';
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
    grantLifetimeMs,
    assertMediaConfig,
    webhookSettings,
    publishingSettings,
    schedulerTiming,
    publishingTiming,
    webhookSweepTiming,
    analyticsSyncCron,
  ])
    check(env);
}
