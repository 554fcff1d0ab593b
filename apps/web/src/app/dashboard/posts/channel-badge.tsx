import { NETWORK_NAMES, type Channel } from '@chorus/validators';

/**
 * A channel's mark: its network's initial on the network's colour. Not the profile picture:
 * the dashboard loads images from its own origin only, and avatars live on the networks.
 */
export function ChannelAvatar({ channel }: { channel: Pick<Channel, 'integrationId'> }) {
  return (
    <span className={`channel-avatar net-${channel.integrationId}`} aria-hidden="true">
      {NETWORK_NAMES[channel.integrationId].slice(0, 1)}
    </span>
  );
}

/** A channel as people recognise it: mark, name, handle and network. */
export function ChannelBadge({ channel }: { channel: Channel }) {
  return (
    <span className="channel-badge">
      <ChannelAvatar channel={channel} />
      <span>
        <strong>{channel.name}</strong>{' '}
        <span className="muted small">
          {channel.handle} · {NETWORK_NAMES[channel.integrationId]}
        </span>
      </span>
    </span>
  );
}
