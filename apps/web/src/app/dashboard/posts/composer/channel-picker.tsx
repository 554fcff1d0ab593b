import type { Channel } from '@chorus/validators';
import Link from 'next/link';
import { ChannelBadge } from '../channel-badge';

type PickerProps = {
  channels: Channel[];
  chosen: string[];
  /** Channels whose target went out or may have, with why: checked, and not to be unchecked. */
  locked?: ReadonlyMap<string, string>;
  onToggle: (channelId: string, on: boolean) => void;
  error?: string;
  errorId: string;
};

/** The account's channels as checkboxes; one that lost its access says so, with the way back. */
export function ChannelPicker(props: PickerProps) {
  const { channels, chosen, locked, onToggle, error, errorId } = props;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend>Channels</legend>
      {channels.length === 0 ? (
        <p className="muted small">
          No channels yet: connect Bluesky, Mastodon or another network on the{' '}
          <Link href="/dashboard/integrations">Integrations</Link> page. Without channels the post
          is only kept here.
        </p>
      ) : (
        <ul className="channel-picker">
          {channels.map((channel) => {
            const lock = locked?.get(channel.id);
            const lockId = `${errorId}-lock-${channel.id}`;
            return (
              <li key={channel.id}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={chosen.includes(channel.id)}
                    disabled={lock !== undefined}
                    aria-describedby={lock !== undefined ? lockId : undefined}
                    onChange={(event) => onToggle(channel.id, event.currentTarget.checked)}
                  />
                  <ChannelBadge channel={channel} />
                </label>
                {lock !== undefined && (
                  <p id={lockId} className="muted small">
                    {lock}
                  </p>
                )}
                {channel.connectionStatus === 'needs_reconnect' && (
                  <p className="error small">
                    Needs reconnecting: posts to it fail until you{' '}
                    <Link href="/dashboard/integrations">reconnect it</Link>.
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <small id={errorId} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
