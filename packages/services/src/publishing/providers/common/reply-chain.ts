import {
  sendKey,
  type PublishMedia,
  type PublishProgress,
  type PublishRequest,
  type Published,
} from '../../provider';

/** One post of a reply chain, as the network module sends it. */
export interface ChainPost {
  text: string;
  media: PublishMedia[];
  /** The post it replies to; null for the first. */
  inReplyTo: string | null;
  /**
   * Stable across attempts of one text, new with a new one (`tgt_…:0`, `tgt_…:comment`, then
   * `tgt_….r1:0`): an idempotency key where the network takes one.
   */
  key: string;
}

const list = (value: string | string[] | undefined) => (Array.isArray(value) ? value : []);
const text = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** The chain's first post, once it is live (`Provider.head`). */
export function replyChainHead(progress: PublishProgress) {
  const first = list(progress.posted)[0];
  return first === undefined ? undefined : { externalId: first, url: text(progress.url) ?? null };
}

/** The first `parts` posts of the chain that are live, and the first one's link (`Provider.keepParts`). */
export function replyChainKeep(progress: PublishProgress, parts: number): PublishProgress {
  const posted = list(progress.posted).slice(0, Math.max(parts, 0));
  const url = text(progress.url);
  if (posted.length === 0) return {};
  return url === undefined ? { posted } : { posted, url };
}

/**
 * Publishes a target's parts as a reply chain (each part a reply to the one before) and its
 * first comment as a reply to the first post. What is posted is saved before the next post
 * (`posted` ids, the first post's `url`, the `comment`), and a retry continues from there:
 * a part already posted is never sent again.
 */
export async function publishReplyChain(
  request: PublishRequest,
  post: (next: ChainPost) => Promise<{ id: string; url: string }>,
): Promise<Published> {
  const key = sendKey(request);
  const posted = [...list(request.progress.posted)];
  let url = text(request.progress.url);
  for (let index = posted.length; index < request.parts.length; index++) {
    const part = request.parts[index];
    if (!part) break;
    const done = await post({
      text: part.text,
      media: part.media,
      inReplyTo: posted.at(-1) ?? null,
      key: `${key}:${index}`,
    });
    posted.push(done.id);
    url ??= done.url;
    await request.saveProgress({ posted, url });
  }
  const first = posted[0];
  if (first === undefined || url === undefined) throw new Error('A target needs a post.');
  if (request.firstComment !== null && text(request.progress.comment) === undefined) {
    const comment = await post({
      text: request.firstComment,
      media: [],
      inReplyTo: first,
      key: `${key}:comment`,
    });
    await request.saveProgress({ posted, url, comment: comment.id });
  }
  return { externalId: first, url };
}
