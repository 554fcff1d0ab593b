'use client';

import { NETWORK_NAMES, type Channel, type Issue, type Media } from '@chorus/validators';
import { useId } from 'react';
import { Counter } from './counter';
import { fieldOf, type Variant } from './draft';
import { Preview } from './preview';

type PanelProps = {
  channel: Channel;
  variant: Variant;
  /** The account's media by id, for the preview. */
  media: ReadonlyMap<string, Media>;
  /** The shared media, which a variant without its own shows. */
  sharedMedia: string[];
  /** The shared text, which a variant that is not overridden follows. */
  shared: string;
  issues: Issue[];
  onChange: (variant: Variant) => void;
};

/** Errors beside the field they name, tied to it for screen readers. */
function Errors({ id, issues }: { id: string; issues: Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className="error small issues">
      {issues.map((issue) => (
        <li key={`${issue.path}-${issue.message}`}>{issue.message}</li>
      ))}
    </ul>
  );
}

/** One channel's variant: its own text (or the shared one), first comment, and what is wrong. */
export function VariantPanel(props: PanelProps) {
  const { channel, variant, shared, issues, onChange } = props;
  const items = (ids: string[]) =>
    ids.flatMap((mediaId) => {
      const item = props.media.get(mediaId);
      return item ? [item] : [];
    });
  const id = useId();
  const network = NETWORK_NAMES[channel.integrationId];
  const where = `${channel.name} on ${network}`;
  const text = variant.override ? variant.content : shared;
  const byField = (fields: string[]) =>
    issues.filter((i) => fields.includes(fieldOf(i.path).field));
  const textIssues = byField(['content']);
  const commentIssues = byField(['firstComment']);
  const otherIssues = issues.filter(
    (i) => !['content', 'firstComment'].includes(fieldOf(i.path).field),
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
      {(variant.mediaIds || variant.thread) && (
        <p className="muted small">
          {variant.mediaIds && `Its own media (${variant.mediaIds.length}). `}
          {variant.thread && `A thread of ${variant.thread.length + 1} posts. `}
          Kept as set through the API.
        </p>
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
