'use client';

import type { Media, Post } from '@chorus/validators';
import { useRouter } from 'next/navigation';
import { useId, useRef } from 'react';
import { Field } from '~/components/field';
import { useToastAction } from '~/components/toast';
import { createPost, updatePost } from './actions';
import { MediaPicker } from './media-picker';

function ContentField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Content</label>
      <textarea
        id={id}
        name="content"
        rows={8}
        maxLength={50_000}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </div>
  );
}

type PostFormProps = { post?: Post; media: Media[]; moreMedia: boolean };

/**
 * Writes a new post (then goes to its page) or edits one. A refusal keeps what was typed and
 * checked, with each error beside its field.
 */
export function PostForm({ post, media, moreMedia }: PostFormProps) {
  const router = useRouter();
  const [result, run, pending] = useToastAction(post ? updatePost : createPost, (answer) => {
    if (answer.location) router.push(answer.location);
  });
  // Checkboxes repeat one name, which the action's typed values cannot hold: the ones sent
  // are kept here. A ref, not state: a state update made before the action's await commits
  // after the refusal has redrawn the form, which then showed them unchecked.
  const sent = useRef<string[]>([]);
  const submit = (form: FormData) => {
    sent.current = form.getAll('mediaIds').map(String);
    run(form);
  };
  const fields = result.fields ?? {};
  const typed = result.values;
  // Drawn anew after each answer, and when the saved post arrives from the server.
  const key = `${result.at}-${post?.updatedAt}`;
  return (
    <form action={submit} className="form" key={key}>
      {post && <input type="hidden" name="id" value={post.id} />}
      <Field
        label="Title"
        name="title"
        required
        maxLength={300}
        defaultValue={typed?.title ?? post?.title}
        error={fields.title}
      />
      <ContentField defaultValue={typed?.content ?? post?.content} error={fields.content} />
      <Field
        label="Tags"
        name="tags"
        hint="Separated by commas, e.g. launch, news."
        defaultValue={typed?.tags ?? post?.tags.join(', ')}
        error={fields.tags}
      />
      <MediaPicker
        media={media}
        checked={typed ? sent.current : (post?.mediaIds ?? [])}
        more={moreMedia}
        error={fields.mediaIds}
      />
      {result.error && !Object.keys(fields).length && (
        <p className="error" role="alert">
          {result.error}
        </p>
      )}
      <button type="submit" className="primary" disabled={pending}>
        {post ? 'Save' : 'Create post'}
      </button>
    </form>
  );
}
