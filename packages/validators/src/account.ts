import { z } from 'zod';
import { ZEnvelope } from './envelope';

/**
 * The IANA zones this runtime knows (with `UTC`, which `supportedValuesOf` leaves out on some
 * builds). A set, read once: checking a name is then one lookup.
 */
const ZONES = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/** True when `name` is an IANA zone the runtime can compute with (exact spelling). */
export const isTimeZone = (name: string) => ZONES.has(name);

export const ZTimeZone = z
  .string()
  .max(64, { abort: true })
  .refine(isTimeZone, 'Must be an IANA time zone name, such as Europe/Berlin or UTC.')
  .meta({ example: 'Europe/Berlin' });

/** An account's settings (docs/settings-and-import-export.md). */
export const ZAccountSettings = z
  .object({
    requireApproval: z.boolean().meta({
      description:
        "When on, members with the `user` role submit posts for an admin's approval instead of scheduling or publishing them.",
    }),
    timeZone: ZTimeZone.meta({
      description:
        'IANA time zone of posting slots, recurrence and the dashboard calendar. Default `UTC`.',
    }),
  })
  .meta({ id: 'AccountSettings' });

/** A partial update: fields left out are kept. */
export const ZUpdateAccountSettings = z.object({
  requireApproval: z.boolean().optional(),
  timeZone: ZTimeZone.optional(),
});

export const ZAccountSettingsResponse = ZEnvelope(ZAccountSettings, 'AccountSettingsResponse');

export type AccountSettings = z.infer<typeof ZAccountSettings>;
export type UpdateAccountSettings = z.infer<typeof ZUpdateAccountSettings>;
