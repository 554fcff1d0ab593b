import { z } from 'zod';
import { ZEnvelope } from './envelope';
import { singleLine } from './text';

/**
 * An account's name, as one line: the user name's rule (a name shown in one line of the
 * dashboard and the CLI's output). Nothing in the API takes it yet; the CLI's `account create`
 * checks it here, so that the rule is written once when a door does.
 */
export const ZAccountName = singleLine(z.string().trim().min(1).max(200)).meta({
  example: 'Acme',
});

/**
 * The zones this runtime lists (with `UTC`, which `supportedValuesOf` leaves out on some
 * builds). ICU lists each zone under one id, often an older name (`Asia/Calcutta`, not
 * `Asia/Kolkata`; `Europe/Kiev`, not `Europe/Kyiv`), so the list alone would refuse the names
 * the tz database uses today.
 */
const ZONES = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/** The zones a form offers, sorted: every one this runtime lists, and UTC. */
export const listedTimeZones = (): string[] => [...ZONES].sort();

/** Written as the tz database writes names: each part begins with a capital letter. */
const ZONE_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/** The id the runtime resolves `name` to, or undefined when it knows no such zone. */
function resolvedZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * True when `name` is an IANA zone the runtime can compute with, written as IANA writes it: one
 * it lists, one it knows unlisted (`Etc/GMT+5`), or another name of one (`Asia/Kolkata`). Intl
 * also takes offsets (`+02:00`) and any letter case; neither is a zone's name, and a zone in
 * other letters than the runtime's own (`EUROPE/BERLIN`) is refused.
 */
export function isTimeZone(name: string): boolean {
  if (ZONES.has(name)) return true;
  if (!ZONE_NAME.test(name)) return false;
  const resolved = resolvedZone(name);
  return (
    resolved !== undefined && (resolved === name || resolved.toLowerCase() !== name.toLowerCase())
  );
}

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
