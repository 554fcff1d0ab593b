import { NETWORK_NAMES, type Channel, type Post, type Target } from '@chorus/validators';
import Link from 'next/link';
import { ZoneTime } from '~/components/zone-time';
import type { PostAccess } from '~/server/post-access';
import { retryPost } from '../actions';
import { ChannelBadge, channelInWords } from '../channel-badge';
import { StatusButton } from '../composer/status-button';
import { ResolveDialog } from './resolve-dialog';
import { targetLabel } from './target-label';

/** What the user can do about a failure the network will not get over by itself. */
const NEXT_STEP: Partial<Record<string, string>> = {
  reconnect_required: 'The network withdrew our access: reconnect it, then retry.',
  channel_unavailable: 'The channel was disconnected: connect it again, then retry.',
  media_unavailable: 'An attachment was deleted from the library: edit the post.',
  service_url_refused:
    'The server this channel was connected on is not allowed here: connect it again on a public https address, then retry.',
};

function Outcome({ target, network, zone }: { target: Target; network: string; zone: string }) {
  if (target.status === 'published') {
    return (
      <p className="small">
        {target.url ? (
          <a href={target.url} target="_blank" rel="noreferrer">
            View on {network}
          </a>
        ) : (
          `On ${network} (no link given).`
        )}
        {target.publishedAt && (
          <span className="muted">
            {' · '}
            <ZoneTime iso={target.publishedAt} zone={zone} />
          </span>
        )}
      </p>
    );
  }
  if (target.status === 'failed' && target.error) {
    const next = NEXT_STEP[target.error.code];
    return (
      <div className="small">
        <p className="error">
          {network} said: {target.error.message}
        </p>
        {next && (
          <p>
            {next}{' '}
            {target.error.code !== 'media_unavailable' && (
              <Link href="/dashboard/integrations">Integrations</Link>
            )}
          </p>
        )}
      </div>
    );
  }
  if (target.status === 'unconfirmed') {
    return (
      <p className="small">
        Sent, but {network} never answered: it may or may not be there. Chorus does not send it
        again by itself, which could post it twice. Look on {network}, then say what you found.
      </p>
    );
  }
  return null;
}

type PostTargetsProps = {
  post: Post;
  channels: Map<string, Channel>;
  /** What this user may do: retry (not while approval holds their publishing) and resolve. */
  may: Pick<PostAccess, 'retry' | 'resolve' | 'submits'>;
  /** The account's time zone, as the rest of the post's page. */
  zone: string;
  /** The composer form's id, when the page shows the composer: Retry saves what it holds. */
  composer?: string;
};

/** Where the post goes and how it went on each channel, with what can be done about it. */
export function PostTargets({ post, channels, may, zone, composer }: PostTargetsProps) {
  const retryable = post.status === 'failed' && post.targets.some((t) => t.status === 'failed');
  return (
    <section className="panel" aria-labelledby="post-channels">
      <h2 id="post-channels">Channels</h2>
      <ul className="targets">
        {post.targets.map((target) => {
          const channel = channels.get(target.channelId);
          const network = channel ? NETWORK_NAMES[channel.integrationId] : 'The network';
          const name = channelInWords(channel);
          return (
            <li key={target.id} aria-label={name}>
              <div className="target-head">
                {channel ? (
                  <ChannelBadge channel={channel} />
                ) : (
                  <span className="muted">A channel since disconnected</span>
                )}
                <span className={`badge target-${target.status}`}>{targetLabel(target, post)}</span>
              </div>
              <Outcome target={target} network={network} zone={zone} />
              {may.resolve && target.status === 'unconfirmed' && (
                <ResolveDialog
                  postId={post.id}
                  targetId={target.id}
                  network={network}
                  name={name}
                />
              )}
            </li>
          );
        })}
      </ul>
      {retryable && may.retry && (
        // What the composer holds goes out, saved first ("Save and retry failed channels"): once
        // publishing, the page is read-only and an unsaved edit would be lost.
        <StatusButton
          composer={composer}
          intent="retry"
          action={retryPost}
          values={{ id: post.id }}
          className="primary"
        >
          Retry failed channels
        </StatusButton>
      )}
      {retryable && may.submits && (
        <p className="small muted">
          Posts need an admin’s approval: an admin retries it, or move it back to draft and submit
          it again.
        </p>
      )}
    </section>
  );
}
