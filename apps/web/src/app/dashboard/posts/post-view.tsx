import type { Media, Post } from '@chorus/validators';

/** A post as someone who may not edit it reads it. */
export function PostView({ post, media }: { post: Post; media: Media[] }) {
  const attached = media.filter((item) => post.mediaIds.includes(item.id));
  return (
    <dl className="facts">
      <dt>Title</dt>
      <dd>{post.title}</dd>
      <dt>Content</dt>
      <dd className="prewrap">{post.content || <span className="muted">—</span>}</dd>
      <dt>Tags</dt>
      <dd>{post.tags.join(', ') || <span className="muted">—</span>}</dd>
      <dt>Media</dt>
      <dd>
        {attached.map((item) => item.filename).join(', ') || <span className="muted">—</span>}
      </dd>
    </dl>
  );
}
