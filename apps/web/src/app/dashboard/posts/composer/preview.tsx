import { NETWORK_NAMES, type Channel, type Media } from '@chorus/validators';
import { Fragment, type ReactNode } from 'react';
import { ChannelAvatar } from '../channel-badge';

/** Links, @mentions and #hashtags as networks colour them (not followed from a preview). */
const TOKENS = /(https?:\/\/[^\s]+|(?<![\w@])@[\w.@-]+\w|(?<![\w#])#[\p{L}\p{N}_]+)/gu;

function RichText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKENS)) {
    const start = match.index;
    parts.push(text.slice(at, start));
    parts.push(
      <span key={start} className="preview-link">
        {match[0]}
      </span>,
    );
    at = start + match[0].length;
  }
  parts.push(text.slice(at));
  return (
    <p className="preview-text">
      {parts.map((part, i) => (
        <Fragment key={i}>{part}</Fragment>
      ))}
    </p>
  );
}

function MediaGrid({ media }: { media: Media[] }) {
  if (media.length === 0) return null;
  return (
    <div className={`preview-media count-${Math.min(media.length, 4)}`}>
      {media.slice(0, 4).map((item) =>
        item.mimeType.startsWith('image/') ? (
          <img key={item.id} src={item.url} alt={item.altText ?? ''} loading="lazy" />
        ) : (
          <span key={item.id} className="preview-file">
            {item.mimeType === 'video/mp4' ? 'Video' : 'PDF'}: {item.filename}
          </span>
        ),
      )}
      {media.length > 4 && <span className="preview-file">+{media.length - 4} more</span>}
    </div>
  );
}

function Post({ channel, text, media }: { channel: Channel; text: string; media: Media[] }) {
  return (
    <div className="preview-post">
      <div className="preview-head">
        <ChannelAvatar channel={channel} />
        <span>
          <strong>{channel.name}</strong> <span className="muted small">{channel.handle}</span>
        </span>
      </div>
      <RichText text={text} />
      <MediaGrid media={media} />
    </div>
  );
}

type PreviewProps = {
  channel: Channel;
  text: string;
  media: Media[];
  thread: { text: string; media: Media[] }[];
  firstComment: string;
};

/**
 * Roughly how the network shows the post: the channel's name and handle, the text with its
 * links, the first four attachments as a grid, then the thread and the first comment as
 * replies. Said to be an approximation: fonts, link cards, cropping and truncation differ.
 */
export function Preview({ channel, text, media, thread, firstComment }: PreviewProps) {
  const network = NETWORK_NAMES[channel.integrationId];
  return (
    <figure className={`preview net-${channel.integrationId}`} aria-label={`Preview on ${network}`}>
      <Post channel={channel} text={text} media={media} />
      {thread.map((part, index) => (
        <Post key={index} channel={channel} text={part.text} media={part.media} />
      ))}
      {firstComment.trim() && <Post channel={channel} text={firstComment} media={[]} />}
      <figcaption className="muted small">
        An approximation of {network}: its fonts, link cards, image cropping and “show more” cut
        differ.
      </figcaption>
    </figure>
  );
}
