import { readSetting } from '@chorus/settings';

type Env = Record<string, string | undefined>;

/** About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure (docs/webhooks.md). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];

export interface WebhookSettings {
  /** Seconds to wait after the 1st, 2nd, … failed attempt; after the last, the delivery fails. */
  retrySchedule: number[];
  /** Private, loopback and link-local targets (and http to loopback) allowed: tests, dev. */
  allowPrivateTargets: boolean;
  /**
   * How long a claimed delivery stays with its worker: one that dies mid-attempt leaves it due
   * again after this. Longer than an attempt can take (10 s): a shorter one is refused.
   */
  leaseSeconds: number;
  /** The most endpoints an account may have (each event fans out to all of them). */
  maxPerAccount: number;
}

/**
 * From the environment: `CHORUS_WEBHOOK_RETRY_SCHEDULE` (seconds, comma-separated),
 * `CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS` (`true`), `CHORUS_WEBHOOK_LEASE_SECONDS` and
 * `CHORUS_WEBHOOK_MAX_PER_ACCOUNT` (50). A bad value throws, naming the setting.
 */
export function webhookSettings(env: Env = process.env): WebhookSettings {
  const raw = env.CHORUS_WEBHOOK_RETRY_SCHEDULE?.trim();
  const retrySchedule = raw
    ? raw.split(',').map((s) => Number(s.trim()))
    : DEFAULT_RETRY_SCHEDULE_SECONDS;
  if (retrySchedule.some((s) => !Number.isFinite(s) || s < 0 || s > 7 * 86_400)) {
    throw new Error(
      'CHORUS_WEBHOOK_RETRY_SCHEDULE must be seconds (0 to 604800), comma-separated.',
    );
  }
  return {
    retrySchedule,
    allowPrivateTargets: readSetting('CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS', env),
    leaseSeconds: readSetting('CHORUS_WEBHOOK_LEASE_SECONDS', env),
    maxPerAccount: readSetting('CHORUS_WEBHOOK_MAX_PER_ACCOUNT', env),
  };
}
