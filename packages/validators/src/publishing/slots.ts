import { z } from 'zod';
import { ZTimestamp } from '../common';
import { ZEnvelope } from '../envelope';
import { MAX_TARGETS } from '../posts';
import { ZRecurrence } from '../recurrence';

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A weekly posting time of a channel, in the account's time zone. */
export const ZSlot = z
  .object({
    day: z.enum(WEEKDAYS),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time of day as HH:MM, 00:00 to 23:59.')
      .meta({ example: '09:30' }),
  })
  .meta({ id: 'PostingSlot' });
export type Slot = z.infer<typeof ZSlot>;

/** The most slots a channel may have: three a day, every day, and then some. */
export const MAX_SLOTS = 50;

export const ZPutSlots = z.object({
  slots: z
    .array(ZSlot)
    .max(MAX_SLOTS, `At most ${MAX_SLOTS} slots.`)
    .refine(
      (slots) => new Set(slots.map((s) => `${s.day} ${s.time}`)).size === slots.length,
      'Each slot (day and time) once.',
    )
    .meta({
      description: `Replaces the channel's slots (at most ${MAX_SLOTS}, each day and time once); \`[]\` removes them.`,
      example: [
        { day: 'monday', time: '09:30' },
        { day: 'wednesday', time: '17:00' },
      ],
    }),
});
export type PutSlotsInput = z.infer<typeof ZPutSlots>;

export const ZChannelIdParam = z.object({ id: z.string() });

export const ZChannelSlots = z
  .object({
    channelId: z.string().meta({ example: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    timeZone: z.string().meta({
      description: "The account's time zone, which the slots' times are in.",
      example: 'Europe/Berlin',
    }),
    slots: z.array(ZSlot).meta({ description: 'Monday first, then by time.' }),
    upcoming: z.array(z.object({ at: ZTimestamp, free: z.boolean() })).meta({
      description:
        'The next slots (at most 10 within four weeks) as instants, and whether a post of this channel already takes each.',
    }),
  })
  .meta({ id: 'ChannelSlots' });
export type ChannelSlots = z.infer<typeof ZChannelSlots>;

export const ZChannelSlotsResponse = ZEnvelope(ZChannelSlots, 'ChannelSlotsResponse');

export const ZNextSlotQuery = z.object({
  channelIds: z
    .string()
    .max(MAX_TARGETS * 65)
    .transform((value) => value.split(',').map((id) => id.trim()))
    .pipe(
      z
        .array(z.string().min(1, 'An empty channel id.').max(64))
        .max(MAX_TARGETS, `At most ${MAX_TARGETS} channels.`),
    )
    .meta({
      description: "The post's channels (its targets'), comma-separated.",
      example: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W,chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0X',
    }),
  recurrence: ZRecurrence.optional().meta({
    description: "For a series: the slot must be free at each of the rule's occurrences too.",
  }),
  postId: z
    .string()
    .min(1)
    .max(64)
    .meta({
      description:
        "The post being rescheduled: the slot it holds now counts as free, and its locked targets' channels (published, unconfirmed: never sent again) take no part.",
    })
    .optional(),
});
export type NextSlotQuery = z.infer<typeof ZNextSlotQuery>;

export const ZNextSlot = z
  .object({
    at: ZTimestamp.nullable().meta({
      description: 'The slot `schedule: "next_slot"` would take now; null when none would.',
    }),
    timeZone: z.string().meta({ example: 'Europe/Berlin' }),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why no slot would be taken (the refusal `next_slot` would give).' }),
  })
  .meta({ id: 'NextSlot' });
export type NextSlot = z.infer<typeof ZNextSlot>;

export const ZNextSlotResponse = ZEnvelope(ZNextSlot, 'NextSlotResponse');
