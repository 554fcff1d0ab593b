import { NETWORK_NAMES, type Channel } from '@chorus/validators';

/** The "Channel" field of the posts list's and the calendar's filter forms. */
export function ChannelFilter(props: { id: string; channels: Channel[]; selected?: string }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Channel</label>
      <select id={props.id} name="channelId" defaultValue={props.selected ?? ''}>
        <option value="">Every channel</option>
        {props.channels.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({NETWORK_NAMES[c.integrationId]})
          </option>
        ))}
      </select>
    </div>
  );
}
