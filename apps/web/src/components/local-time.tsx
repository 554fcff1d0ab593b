'use client';

import { useSyncExternalStore } from 'react';
import { utc } from './format';

const noSubscription = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The browser's IANA time zone, or null while the server renders (and during hydration): the
 * server cannot know the reader's zone, and guessing would differ from the browser's render.
 */
export function useTimeZone(): string | null {
  return useSyncExternalStore(noSubscription, browserZone, () => null);
}

const local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A stored timestamp in the reader's time zone; said in UTC until the browser has rendered. */
export function LocalTime({ iso }: { iso: string }) {
  const zone = useTimeZone();
  return (
    <time dateTime={iso} title={utc(iso)}>
      {zone ? local.format(new Date(iso)) : utc(iso)}
    </time>
  );
}

/** Says which zone the page's times are shown and entered in. */
export function TimeZoneNote({ prefix = 'Times are in your time zone' }: { prefix?: string }) {
  const zone = useTimeZone();
  return (
    <span data-time-zone={zone ?? undefined}>
      {prefix}
      {zone ? `, ${zone}` : ''}.
    </span>
  );
}
