import { NETWORK_NAMES, type Channel } from '@chorus/validators';
import Link from 'next/link';
import { PostChannels } from '../post-channels';
import { timeIn } from '~/components/zone-dates';
import type { CalendarOccurrence, CalendarSlot } from './calendar-posts';

/**
 * A coming occurrence of a recurring post: marked with words, not a colour alone, since it is
 * not a post yet (its copy is made when the time comes, from the series as it is then).
 */
export function OccurrenceItem({
  occurrence,
  channels,
  zone,
}: {
  occurrence: CalendarOccurrence;
  channels: ReadonlyMap<string, Channel>;
  zone: string;
}) {
  return (
    <li className="calendar-post occurrence">
      <span className="time">{timeIn(occurrence.at, zone)}</span>{' '}
      <Link href={`/dashboard/posts/${occurrence.seriesId}`}>{occurrence.title}</Link>{' '}
      <span className="badge">
        <span aria-hidden="true">↻ </span>Repeats
      </span>
      <span className="sr-only">, a coming occurrence of a recurring post</span>
      <PostChannels post={occurrence} channels={channels} none={null} />
    </li>
  );
}

/** A channel's posting slot that no post holds yet. */
export function SlotItem({
  slot,
  channels,
  zone,
}: {
  slot: CalendarSlot;
  channels: ReadonlyMap<string, Channel>;
  zone: string;
}) {
  const channel = channels.get(slot.channelId);
  const name = channel ? `${channel.name} (${NETWORK_NAMES[channel.integrationId]})` : 'A channel';
  return (
    <li className="calendar-slot">
      <span className="time">{timeIn(slot.at, zone)}</span> Open slot
      <span className="small muted"> · {name}</span>
    </li>
  );
}
