import type { Channel, Target } from '@chorus/validators';
import type { ReactNode } from 'react';
import { ChannelAvatar, channelInWords } from './channel-badge';

const TROUBLE: Partial<Record<Target['status'], string>> = {
  failed: 'failed',
  unconfirmed: 'unconfirmed',
};

/**
 * A post's channels as their marks, each named for screen readers, a failed or unconfirmed one
 * flagged so that trouble shows at a glance; `none` for a post without channels (a table's
 * dash; nothing on a calendar's chip).
 */
export function PostChannels({
  post,
  channels,
  none = <span className="muted">—</span>,
}: {
  post: { targets: Pick<Target, 'id' | 'channelId' | 'status'>[] };
  channels: ReadonlyMap<string, Channel>;
  none?: ReactNode;
}) {
  if (post.targets.length === 0) return none;
  return (
    <ul className="post-channels">
      {post.targets.map((target) => {
        const channel = channels.get(target.channelId);
        const trouble = TROUBLE[target.status];
        const name = channelInWords(channel);
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
