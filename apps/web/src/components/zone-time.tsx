import { utc } from './format';
import { dateTimeIn } from './zone-dates';

/**
 * A stored timestamp on the account's clock (`zone`, its IANA name): the same on the server and
 * in every reader's browser, so it is drawn at once and two admins read the same day.
 */
export function ZoneTime({ iso, zone }: { iso: string; zone: string }) {
  return (
    <time dateTime={iso} title={utc(iso)}>
      {dateTimeIn(iso, zone)}
    </time>
  );
}

/** Says which zone the page's times are shown and entered in: the account's, by name. */
export function ZoneNote({
  zone,
  prefix = 'Times are in the account’s time zone',
}: {
  zone: string;
  prefix?: string;
}) {
  return (
    <span data-time-zone={zone}>
      {prefix}, {zone}.
    </span>
  );
}
