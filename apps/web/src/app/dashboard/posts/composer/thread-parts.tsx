'use client';

import { NETWORK_NAMES, type Channel, type Issue, type TargetInput } from '@chorus/validators';
import { useEffect, useId, useRef } from 'react';
import { Counter } from './counter';
import { Errors } from './errors';

type Part = NonNullable<TargetInput['thread']>[number];

type ThreadProps = {
  channel: Channel;
  parts: Part[];
  /** Issues whose path is inside the thread (`targets[1].thread[0].content`). */
  issues: Issue[];
  onChange: (parts: Part[]) => void;
};

/** The posts that follow the first as a thread, each counted like the first. */
export function ThreadParts({ channel, parts, issues, onChange }: ThreadProps) {
  const id = useId();
  const network = NETWORK_NAMES[channel.integrationId];
  const max = channel.limits.maxThreadParts;
  const set = (index: number, content: string) =>
    onChange(parts.map((part, i) => (i === index ? { ...part, content } : part)));
  // A post added is written next: focus moves into it, or typing would press the button again.
  const added = useRef<number | null>(null);
  useEffect(() => {
    if (added.current === null) return;
    document.getElementById(`${id}-${added.current}`)?.focus();
    added.current = null;
  }, [parts.length, id]);
  return (
    <fieldset>
      <legend>Thread on {network}</legend>
      {parts.map((part, index) => {
        const n = index + 2;
        const partIssues = issues.filter((i) => i.path.includes(`.thread[${index}]`));
        return (
          <div className="field" key={index}>
            <label htmlFor={`${id}-${index}`}>
              Post {n} of the thread on {network}
            </label>
            <textarea
              id={`${id}-${index}`}
              rows={3}
              maxLength={50_000}
              value={part.content}
              onChange={(event) => set(index, event.currentTarget.value)}
              aria-invalid={partIssues.length > 0 ? true : undefined}
              aria-describedby={
                partIssues.length > 0
                  ? `${id}-${index}-count ${id}-${index}-errors`
                  : `${id}-${index}-count`
              }
            />
            <Counter channel={channel} text={part.content} id={`${id}-${index}-count`} />
            <Errors id={`${id}-${index}-errors`} issues={partIssues} />
            <div>
              <button type="button" onClick={() => onChange(parts.filter((_, i) => i !== index))}>
                Remove post {n}
              </button>
            </div>
          </div>
        );
      })}
      {parts.length + 1 < max ? (
        <button
          type="button"
          onClick={() => {
            added.current = parts.length;
            onChange([...parts, { content: '' }]);
          }}
        >
          Add a post to the thread
        </button>
      ) : (
        <p className="muted small">
          A thread on {network} has at most {max} posts.
        </p>
      )}
    </fieldset>
  );
}
