import { connectionsToSync, syncConnectionAnalytics, syncPublishedFigures } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { defineJob } from './definition';

export const SYNC_ANALYTICS = 'analytics.sync';
export const SYNC_CONNECTION_ANALYTICS = 'analytics.sync-connection';
export const SYNC_PUBLISHED_ANALYTICS = 'analytics.sync-published';

/** From `CHORUS_ANALYTICS_SYNC_CRON` (default hourly, on the hour; 5 fields, UTC). */
export const analyticsSyncCron = (env = process.env): string =>
  readSetting('CHORUS_ANALYTICS_SYNC_CRON', env);

interface ConnectionRef {
  accountId: string;
  integrationId: string;
}

/**
 * The analytics sync (docs/analytics.md), on a schedule: one job per connection, so that
 * workers share the connections and one slow provider holds up no other. The per-connection
 * queue is `stately` with the connection as singleton key: at most one sync of a connection
 * waits and one runs.
 */
export const syncAnalyticsJob = (cron = analyticsSyncCron()) =>
  defineJob<object>({
    name: SYNC_ANALYTICS,
    queue: { policy: 'stately', retryLimit: 2, expireInSeconds: 300 },
    handle: async (_jobs, { db, boss }) => {
      for (const connection of await connectionsToSync(db)) {
        await boss.send(SYNC_CONNECTION_ANALYTICS, connection, {
          singletonKey: `${connection.accountId}:${connection.integrationId}`,
        });
      }
    },
    onStart: async ({ boss }) => {
      await boss.schedule(SYNC_ANALYTICS, cron);
    },
  });

/** One connection's sync; a provider that cannot be read fails the job, retried with backoff. */
export const syncConnectionAnalyticsJob = () =>
  defineJob<ConnectionRef>({
    name: SYNC_CONNECTION_ANALYTICS,
    queue: {
      policy: 'stately',
      retryLimit: 3,
      retryDelay: 60,
      retryBackoff: true,
      expireInSeconds: 300,
    },
    handle: async (jobs, { db }) => {
      for (const job of jobs) await syncConnectionAnalytics({ db, ...job.data });
    },
  });

/**
 * The figures of published targets, read from each network on the same schedule as the
 * analytics sync (docs/publishing.md); `stately`: one run at a time across workers.
 */
export const syncPublishedAnalyticsJob = (cron = analyticsSyncCron()) =>
  defineJob<object>({
    name: SYNC_PUBLISHED_ANALYTICS,
    queue: { policy: 'stately', retryLimit: 2, expireInSeconds: 1800 },
    handle: async (_jobs, { db }) => {
      await syncPublishedFigures({ db });
    },
    onStart: async ({ boss }) => {
      await boss.schedule(SYNC_PUBLISHED_ANALYTICS, cron);
    },
  });
