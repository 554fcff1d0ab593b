import { z } from 'zod';
import { paginationQuery, rangeBound, ZDay, ZTimestamp, ZZonedTime } from './common';
import { ZEnvelope, ZListEnvelope } from './envelope';

export const TRACKED_EVENT_TYPES = [
  'impression',
  'view',
  'click',
  'like',
  'share',
  'comment',
  'follow',
] as const;
export const ZTrackedEventType = z.enum(TRACKED_EVENT_TYPES);
export type TrackedEventType = z.infer<typeof ZTrackedEventType>;

/** The types that count as engagement (docs/analytics.md): over impressions, the engagement rate. */
export const ENGAGEMENT_TYPES = ['like', 'share', 'comment', 'click'] as const;

/** Most a batch may hold, and most a `properties` object may weigh (as JSON, in bytes). */
export const MAX_EVENTS_PER_BATCH = 1000;
export const MAX_PROPERTIES_BYTES = 8 * 1024;
/** How far ahead of the server's clock `occurredAt` may be: clock skew, not the future. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

const ZTime = ZZonedTime;

const ZProperties = z
  .record(z.string(), z.unknown())
  .refine((p) => {
    const json = JSON.stringify(p);
    // A UTF-16 unit is at most 3 bytes of UTF-8: most objects need no encoding to be sure.
    return (
      json.length * 3 <= MAX_PROPERTIES_BYTES ||
      new TextEncoder().encode(json).length <= MAX_PROPERTIES_BYTES
    );
  }, `Must be at most ${MAX_PROPERTIES_BYTES} bytes as JSON.`)
  .meta({ description: 'Free-form details (an object, up to 8 KiB as JSON).' });

export const ZTrackedEventInput = z.object({
  type: ZTrackedEventType,
  contentId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'A post of the account (`post_…`).' }),
  integrationId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'The platform it happened on: an integration id of the catalogue.' }),
  occurredAt: ZTime.refine(
    (t) => new Date(t).getTime() <= Date.now() + MAX_CLOCK_SKEW_MS,
    'Must not be in the future.',
  )
    .optional()
    .meta({ description: 'When it happened (default: now). Up to 5 minutes ahead is accepted.' }),
  count: z.number().int().min(1).max(1_000_000).default(1).meta({
    description:
      'How many occurrences this event stands for (default 1): 40 impressions as one event.',
  }),
  properties: ZProperties.default({}),
});

export const ZRecordTrackedEvents = z.object({
  events: z
    .array(ZTrackedEventInput)
    .min(1)
    .max(MAX_EVENTS_PER_BATCH)
    .meta({
      description: `1 to ${MAX_EVENTS_PER_BATCH} events, recorded all together or not at all.`,
    }),
});

export const ZTrackedEvent = z
  .object({
    id: z.string().meta({ example: 'aev_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    type: ZTrackedEventType,
    contentId: z.string().nullable(),
    integrationId: z.string().nullable(),
    occurredAt: ZTimestamp,
    count: z.number().int(),
    properties: z.record(z.string(), z.unknown()),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'TrackedEvent' });

export const ZListTrackedEventsQuery = paginationQuery(25).extend({
  // The description before `.optional()`: after it, the OpenAPI parameter loses it.
  type: ZTrackedEventType.meta({ description: 'Only events of this type.' }).optional(),
  contentId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'Only events of this post.' })
    .optional(),
  integrationId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'Only events on this platform.' })
    .optional(),
  from: rangeBound('from', 'Only events that occurred at or after this time.'),
  to: rangeBound('to', 'Only events that occurred at or before this time.'),
});

/** Days of a stats range, both inclusive; default the last 30 days, at most 366. */
export const ZStatsQuery = z.object({
  from: ZDay.meta({ description: 'First day, UTC (default: 29 days before `to`).' }).optional(),
  to: ZDay.meta({ description: 'Last day, UTC, inclusive (default: today).' }).optional(),
});

export const ZContentStatsQuery = ZStatsQuery.extend({ id: z.string() });

const ZTotals = z
  .object(
    Object.fromEntries(TRACKED_EVENT_TYPES.map((t) => [t, z.number().int()])) as {
      [K in TrackedEventType]: z.ZodNumber;
    },
  )
  .meta({ id: 'AnalyticsTotals' });
export type AnalyticsTotals = z.infer<typeof ZTotals>;

const ZEngagementRate = z.number().meta({
  description: '(like + share + comment + click) / impression, as a ratio; 0 without impressions.',
  example: 0.07,
});

export const ZStats = z
  .object({
    from: ZDay,
    to: ZDay,
    totals: ZTotals,
    engagementRate: ZEngagementRate,
    daily: z.array(z.object({ date: ZDay, totals: ZTotals })).meta({
      description: 'Every day of the range, in order, zeros included.',
    }),
    byPlatform: z.array(z.object({ integrationId: z.string(), totals: ZTotals })),
    topContent: z
      .array(
        z.object({
          contentId: z.string(),
          title: z.string(),
          totals: ZTotals,
          engagementRate: ZEngagementRate,
        }),
      )
      .meta({ description: 'Up to 10 posts with the most engagement, most first.' }),
  })
  .meta({ id: 'AnalyticsStats' });

export const ZTrackedEventsResponse = ZEnvelope(z.array(ZTrackedEvent), 'TrackedEventsCreated');
export const ZTrackedEventList = ZListEnvelope(ZTrackedEvent, 'TrackedEventList');
export const ZStatsResponse = ZEnvelope(ZStats, 'AnalyticsStatsResponse');

export type TrackedEventInput = z.infer<typeof ZTrackedEventInput>;
export type TrackedEvent = z.infer<typeof ZTrackedEvent>;
export type ListTrackedEventsQuery = z.infer<typeof ZListTrackedEventsQuery>;
export type StatsQuery = z.infer<typeof ZStatsQuery>;
export type Stats = z.infer<typeof ZStats>;
