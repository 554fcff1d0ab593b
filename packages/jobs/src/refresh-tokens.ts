import { publishingSettings, refreshExpiringCredentials } from '@chorus/services';
import { defineJob } from './definition';

export const REFRESH_TOKENS = 'publishing.refresh-tokens';

/**
 * Refreshes the networks' tokens that expire within CHORUS_PUBLISHING_REFRESH_AHEAD_SECONDS,
 * every five minutes (`stately`: one run at a time across workers; each refresh also holds a
 * lock per credentials, shared with the engine's refresh on an expired token).
 */
export const refreshTokensJob = (cron = '*/5 * * * *') =>
  defineJob<object>({
    name: REFRESH_TOKENS,
    queue: { policy: 'stately', retryLimit: 1, expireInSeconds: 600 },
    handle: async (_jobs, { db }) => {
      await refreshExpiringCredentials({ db, aheadMs: publishingSettings().refreshAheadMs });
    },
    onStart: async ({ boss }) => {
      await boss.schedule(REFRESH_TOKENS, cron);
    },
  });
