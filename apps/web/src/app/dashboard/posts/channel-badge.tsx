import { NETWORK_NAMES, type Channel } from '@chorus/validators';
import { Fragment } from 'react';

/**
 * A channel's mark: its profile picture, over its network's initial on the network's colour,
 * which shows where there is no picture or it does not load (a picture that fails, with an
 * empty alt, draws nothing). Only https pictures: the pages' policy allows images from this
 * origin and https, and a picture is sent no referrer.
 */
export function ChannelAvatar({
  channel,
}: {
  channel: Pick<Channel, 'integrationId'> & { avatarUrl?: string | null };
}) {
  const picture = channel.avatarUrl?.startsWith('https://') ? channel.avatarUrl : null;
  return (
    <span className={`channel-avatar net-${channel.integrationId}`} aria-hidden="true">
      {NETWORK_NAMES[channel.integrationId].slice(0, 1)}
      {picture && <img src={picture} alt="" loading="lazy" referrerPolicy="no-referrer" />}
    </span>
  );
}

/** A channel in words, "northwind.test (Bluesky)"; one no longer connected says so. */
export const channelInWords = (channel: Channel | undefined) =>
  channel
    ? `${channel.name} (${NETWORK_NAMES[channel.integrationId]})`
    : 'a channel since disconnected';

/**
 * A handle that may wrap before each of its `@` but the first (`@alice` `@social.example`):
 * where it is wider than its box, its parts go on lines of their own, not cut mid-word.
 */
function Handle({ handle }: { handle: string }) {
  const parts = handle.split(/(?=@)/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** A channel as people recognise it: mark, name, handle and network (kept with its dot). */
export function ChannelBadge({ channel }: { channel: Channel }) {
  return (
    <span className="channel-badge">
      <ChannelAvatar channel={channel} />
      <span>
        <strong>{channel.name}</strong>{' '}
        <span className="muted small">
          <Handle handle={channel.handle} />{' '}
          <span className="nowrap">· {NETWORK_NAMES[channel.integrationId]}</span>
        </span>
      </span>
    </span>
  );
}
