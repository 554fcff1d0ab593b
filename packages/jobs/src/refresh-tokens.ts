import { publishingSettings, refreshExpiringCredentials } from '@chorus/services';
import { defineJob } from './definition';

export const REFRESH_TOKENS = 'publishing.refresh-tokens';

/**
 * Refreshes the tokens that expire within CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS, every five
 * minutes: the networks' and those of every other OAuth connection (docs/integrations.md).
 * Each refresh holds a lock per credentials, shared with the engine's refresh on an expired
 * token, so runs may overlap; the queue is `short` (one run waiting), not
 * `stately`, whose run left by a killed worker would hold back every next one for up to twelve
 * minutes, most of the refresh margin.
 */
export const refreshTokensJob = (cron = '*/5 * * * *') =>
  defineJob<object>({
    name: REFRESH_TOKENS,
    queue: { policy: 'short', retryLimit: 1, expireInSeconds: 600 },
    handle: async (_jobs, { db }) => {
      await refreshExpiringCredentials({ db, aheadMs: publishingSettings().refreshAheadMs });
    },
    onStart: async ({ boss }) => {
      await boss.schedule(REFRESH_TOKENS, cron);
    },
  });
