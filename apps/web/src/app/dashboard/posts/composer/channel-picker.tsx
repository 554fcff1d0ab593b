import type { Channel } from '@chorus/validators';
import Link from 'next/link';
import { ChannelBadge } from '../channel-badge';

type PickerProps = {
  channels: Channel[];
  chosen: string[];
  onToggle: (channelId: string, on: boolean) => void;
  error?: string;
  errorId: string;
};

/** The account's channels as checkboxes; one that lost its access says so, with the way back. */
export function ChannelPicker({ channels, chosen, onToggle, error, errorId }: PickerProps) {
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
          {channels.map((channel) => (
            <li key={channel.id}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(channel.id)}
                  onChange={(event) => onToggle(channel.id, event.currentTarget.checked)}
                />
                <ChannelBadge channel={channel} />
              </label>
              {channel.connectionStatus === 'needs_reconnect' && (
                <p className="error small">
                  Needs reconnecting: posts to it fail until you{' '}
                  <Link href="/dashboard/integrations">reconnect it</Link>.
                </p>
              )}
            </li>
          ))}
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
