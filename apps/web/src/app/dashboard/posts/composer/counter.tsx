import { NETWORK_NAMES, type Channel } from '@chorus/validators';
import { counterOf } from './draft';

const RULES: Record<Channel['limits']['lengthRule'], string> = {
  graphemes: 'characters as people see them',
  'x-weighted': "X's weighting: links 23, emoji and CJK 2",
  mastodon: 'links count 23',
  threads: 'emoji count their bytes',
  characters: 'characters',
};

/** A channel's length as its network counts it; the text says when it is over. */
export function Counter({ channel, text, id }: { channel: Channel; text: string; id: string }) {
  const { used, max, over } = counterOf(channel, text);
  return (
    <p id={id} className={over > 0 ? 'counter over' : 'counter'}>
      {used} / {max}
      {over > 0 && `: ${over} over`}{' '}
      <span className="muted">
        ({NETWORK_NAMES[channel.integrationId]}, {RULES[channel.limits.lengthRule]})
      </span>
    </p>
  );
}

/** What a screen reader hears once typing pauses: each channel's count. */
export function countsSpoken(channels: { channel: Channel; text: string }[]) {
  return channels
    .map(({ channel, text }) => {
      const { used, max, over } = counterOf(channel, text);
      const where = `${channel.name} on ${NETWORK_NAMES[channel.integrationId]}`;
      return `${where}: ${used} of ${max}${over > 0 ? `, ${over} over` : ''}.`;
    })
    .join(' ');
}
