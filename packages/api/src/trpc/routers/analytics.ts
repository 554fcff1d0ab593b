import {
  accountStats,
  contentStats,
  listTrackedEvents,
  recordTrackedEvents,
} from '@chorus/services';
import {
  ZContentStatsQuery,
  ZListTrackedEventsQuery,
  ZRecordTrackedEvents,
  ZStatsQuery,
  ZStatsResponse,
  ZTrackedEventList,
  ZTrackedEventsResponse,
} from '@chorus/validators';
import { ok, okPage } from '../envelope';
import { router, scoped } from '../init';

const tags = ['Analytics'];

const RANGE =
  '`from` and `to` are UTC days (`YYYY-MM-DD`), both included; the default is the last 30 days, the longest range 366 days. `from` after `to`, a bad date or a longer range is 400 `validation_error` naming the parameter.';

export const analyticsRouter = router({
  record: scoped('analytics:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/analytics/events',
        operationId: 'recordTrackedEvents',
        tags,
        summary: 'Record tracked events',
        description:
          'A batch of 1 to 1,000 events, validated whole and written in one transaction: all of them or none. A bad item is 400 `validation_error` with an issue per item, named by its index (`events[3].contentId`). `contentId` must be a post of the account; `integrationId` an integration of the catalogue.',
      },
      successStatus: 201,
    })
    .input(ZRecordTrackedEvents)
    .output(ZTrackedEventsResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await recordTrackedEvents({ db: ctx.db, principal: ctx.principal, events: input.events })),
    ),

  list: scoped('analytics:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/analytics/events',
        operationId: 'listTrackedEvents',
        tags,
        summary: 'List tracked events',
        description:
          'Newest first (by when they were recorded). `from` and `to` bound `occurredAt`, both included: a timestamp, or a date meaning its whole UTC day.',
      },
    })
    .input(ZListTrackedEventsQuery)
    .output(ZTrackedEventList)
    .query(async ({ ctx, input }) =>
      okPage(await listTrackedEvents({ db: ctx.db, principal: ctx.principal, query: input })),
    ),

  stats: scoped('analytics:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/analytics/stats',
        operationId: 'getAnalyticsStats',
        tags,
        summary: 'Statistics of the account',
        description: `Totals per type, the engagement rate ((like + share + comment + click) / impression, 0 without impressions), every day of the range, the platforms and the 10 posts with the most engagement. Read from daily counts: as fast for ten million events as for ten. ${RANGE}`,
      },
    })
    .input(ZStatsQuery)
    .output(ZStatsResponse)
    .query(async ({ ctx, input }) =>
      ok(await accountStats({ db: ctx.db, principal: ctx.principal, query: input })),
    ),

  content: scoped('analytics:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/analytics/content/{id}',
        operationId: 'getContentStats',
        tags,
        summary: 'Statistics of one post',
        description: `The same figures for one post of the account (404 otherwise); \`topContent\` holds the post itself. ${RANGE}`,
      },
    })
    .input(ZContentStatsQuery)
    .output(ZStatsResponse)
    .query(async ({ ctx, input: { id, ...query } }) =>
      ok(await contentStats({ db: ctx.db, principal: ctx.principal, id, query })),
    ),
});
