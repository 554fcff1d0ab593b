import { NETWORK_NAMES, type Channel } from '@chorus/validators';
import type { Locked } from './draft';

type LockedProps = { channel: Channel; locked: Locked; reason: string };

/**
 * A channel's version once its target went out, or may have: shown, not edited, since the API
 * refuses a change to it (docs/publishing.md, Targets).
 */
export function LockedVariant({ channel, locked, reason }: LockedProps) {
  const network = NETWORK_NAMES[channel.integrationId];
  const own = locked.target.content;
  return (
    <div className="form">
      <p className="small">{reason}</p>
      {own !== undefined && own !== null ? (
        <blockquote className="muted small">{own}</blockquote>
      ) : (
        // It sent the post's text as saved; an edit of the shared text leaves it that text.
        <p className="muted small">
          The shared text as last saved (no text of its own): it keeps that text if the shared text
          changes.
        </p>
      )}
      {locked.url && (
        <p className="small">
          <a href={locked.url} target="_blank" rel="noreferrer">
            View on {network}
          </a>
        </p>
      )}
    </div>
  );
}
