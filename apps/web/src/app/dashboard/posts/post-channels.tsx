import { NETWORK_NAMES, type Channel, type Target } from '@chorus/validators';
import { ChannelAvatar } from './channel-badge';

const TROUBLE: Partial<Record<Target['status'], string>> = {
  failed: 'failed',
  unconfirmed: 'unconfirmed',
};

/**
 * A post's channels as their marks, each named for screen readers, a failed or unconfirmed one
 * flagged so that trouble shows at a glance.
 */
export function PostChannels({
  post,
  channels,
}: {
  post: { targets: Pick<Target, 'id' | 'channelId' | 'status'>[] };
  channels: ReadonlyMap<string, Channel>;
}) {
  if (post.targets.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="post-channels">
      {post.targets.map((target) => {
        const channel = channels.get(target.channelId);
        const trouble = TROUBLE[target.status];
        const name = channel
          ? `${channel.name} (${NETWORK_NAMES[channel.integrationId]})`
          : 'A removed channel';
        return (
          <li key={target.id} className={trouble ? 'trouble' : undefined} title={name}>
            {channel ? <ChannelAvatar channel={channel} /> : <span aria-hidden="true">?</span>}
            <span className="sr-only">
              {name}
              {trouble && `: ${trouble}`}
            </span>
            {trouble && (
              <span className="error small" aria-hidden="true">
                !
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
