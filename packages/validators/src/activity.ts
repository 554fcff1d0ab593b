import { z } from 'zod';
import { paginationQuery, ZTimestamp } from './common';
import { ZListEnvelope } from './envelope';

/** What an entry of a post's activity records. */
export const ACTIVITY_ACTIONS = [
  'created',
  'edited',
  'submitted',
  'withdrawn',
  'approved',
  'rejected',
  'scheduled',
  'unscheduled',
  'publishing',
  'published',
  'failed',
  'unconfirmed',
  'retried',
  'resolved',
  'repeated',
  'archived',
  'restored',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export const ZActivity = z
  .object({
    id: z.string().meta({ example: 'act_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    action: z.enum(ACTIVITY_ACTIONS).meta({
      description:
        '`created`, `edited` (`details.fields`), `submitted`, `withdrawn` (back to draft by its author), `approved` (`details.status` it reached), `rejected` (`details.comment`), `scheduled` (`details.scheduledAt`), `unscheduled`, `publishing`, `published` and `failed` / `unconfirmed` (per target, with `targetId`, `channelId`, `details.url` or `details.error`; `published` without a target: a post without targets), `retried`, `resolved` (`details.published`), `repeated` (a series published a copy: `details.copyId`, `details.occurrenceAt`, and the copy a `created` entry with `details.recurrenceOf`), `archived`, `restored` (archived or failed back to draft).',
    }),
    actorId: z.string().nullable().meta({
      description: 'The member who did it; null for Chorus itself (the scheduler, publishing).',
    }),
    targetId: z.string().nullable(),
    channelId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'Activity' });
export type Activity = z.infer<typeof ZActivity>;

export const ZActivityQuery = paginationQuery(25).extend({ id: z.string() });
export const ZActivityList = ZListEnvelope(ZActivity, 'ActivityList');
