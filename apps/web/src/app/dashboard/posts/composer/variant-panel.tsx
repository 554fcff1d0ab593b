'use client';

import { NETWORK_NAMES, type Channel, type Issue, type Media } from '@chorus/validators';
import { useId } from 'react';
import { MediaPicker } from '../media-picker';
import { Counter } from './counter';
import { Errors } from './errors';
import { fieldOf, type Variant } from './draft';
import { Preview } from './preview';
import { ThreadParts } from './thread-parts';

type PanelProps = {
  channel: Channel;
  variant: Variant;
  /** The shared text, which a variant that is not overridden follows. */
  shared: string;
  /** The account's media (the library's newest and the post's), for pickers and the preview. */
  media: Media[];
  /** The shared media, which a variant without its own shows. */
  sharedMedia: string[];
  issues: Issue[];
  onChange: (variant: Variant) => void;
};

const IN_THREAD = /\.thread\[\d+\]/;

/**
 * One channel's variant: its own text (or the shared one), its own media (or the shared),
 * thread posts where the network has threads, a first comment, what is wrong, and a preview.
 */
export function VariantPanel(props: PanelProps) {
  const { channel, variant, shared, issues, onChange } = props;
  const id = useId();
  const network = NETWORK_NAMES[channel.integrationId];
  const where = `${channel.name} on ${network}`;
  const text = variant.override ? variant.content : shared;
  const byId = new Map(props.media.map((item) => [item.id, item]));
  const items = (ids: string[]) =>
    ids.flatMap((mediaId) => {
      const item = byId.get(mediaId);
      return item ? [item] : [];
    });
  const ofField = (field: string) =>
    issues.filter((i) => !IN_THREAD.test(i.path) && fieldOf(i.path).field === field);
  const textIssues = ofField('content');
  const mediaIssues = ofField('mediaIds');
  const commentIssues = ofField('firstComment');
  const threadIssues = issues.filter((i) => IN_THREAD.test(i.path));
  const otherIssues = issues.filter(
    (i) =>
      !IN_THREAD.test(i.path) &&
      !['content', 'mediaIds', 'firstComment'].includes(fieldOf(i.path).field),
  );
  const described = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;
  return (
    <div className="form">
      <label className="check">
        <input
          type="checkbox"
          checked={variant.override}
          onChange={(event) =>
            onChange({
              ...variant,
              override: event.currentTarget.checked,
              // Starts from the shared text, to be tailored.
              content: variant.override ? variant.content : shared,
            })
          }
        />
        Write a different text for {where}
      </label>
      {variant.override ? (
        <div className="field">
          <label htmlFor={`${id}-text`}>Text for {where}</label>
          <textarea
            id={`${id}-text`}
            rows={6}
            maxLength={50_000}
            value={variant.content}
            onChange={(event) => onChange({ ...variant, content: event.currentTarget.value })}
            aria-invalid={textIssues.length > 0 ? true : undefined}
            aria-describedby={described(
              `${id}-count`,
              textIssues.length > 0 && `${id}-text-errors`,
            )}
          />
        </div>
      ) : (
        <p className="muted small">Follows the shared text as you change it.</p>
      )}
      <Counter channel={channel} text={text} id={`${id}-count`} />
      <Errors id={`${id}-text-errors`} issues={textIssues} />
      <label className="check">
        <input
          type="checkbox"
          checked={variant.mediaIds !== null}
          onChange={(event) =>
            onChange({
              ...variant,
              mediaIds: event.currentTarget.checked ? [...props.sharedMedia] : null,
            })
          }
        />
        Use different media for {where}
      </label>
      {variant.mediaIds !== null && (
        <MediaPicker
          media={props.media}
          checked={variant.mediaIds}
          more={false}
          name={`${id}-media`}
          legend={`Media for ${where}`}
          error={mediaIssues.map((i) => i.message).join(' ') || undefined}
          onChange={(mediaIds) => onChange({ ...variant, mediaIds })}
        />
      )}
      {variant.mediaIds === null && <Errors id={`${id}-media-errors`} issues={mediaIssues} />}
      {channel.limits.maxThreadParts > 1 && (
        <ThreadParts
          channel={channel}
          parts={variant.thread ?? []}
          issues={threadIssues}
          onChange={(thread) => onChange({ ...variant, thread: thread.length ? thread : null })}
        />
      )}
      {channel.limits.firstComment && (
        <div className="field">
          <label htmlFor={`${id}-comment`}>First comment on {network} (optional)</label>
          <textarea
            id={`${id}-comment`}
            rows={2}
            maxLength={50_000}
            value={variant.firstComment}
            onChange={(event) => onChange({ ...variant, firstComment: event.currentTarget.value })}
            aria-invalid={commentIssues.length > 0 ? true : undefined}
            aria-describedby={described(commentIssues.length > 0 && `${id}-comment-errors`)}
          />
          <Errors id={`${id}-comment-errors`} issues={commentIssues} />
        </div>
      )}
      <Errors id={`${id}-other-errors`} issues={otherIssues} />
      <Preview
        channel={channel}
        text={text}
        media={items(variant.mediaIds ?? props.sharedMedia)}
        thread={(variant.thread ?? []).map((part) => ({
          text: part.content,
          media: items(part.mediaIds ?? []),
        }))}
        firstComment={variant.firstComment}
      />
    </div>
  );
}
