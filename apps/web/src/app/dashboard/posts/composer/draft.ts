import {
  countLength,
  NETWORK_NAMES,
  targetIssues,
  type Channel,
  type Issue,
  type Media,
  type Post,
  type TargetInput,
} from '@chorus/validators';

/** One chosen channel in the composer: its own text when overridden, else the shared text. */
export interface Variant {
  channelId: string;
  override: boolean;
  content: string;
  firstComment: string;
  /** Kept as the post has them (the composer does not edit these yet). */
  mediaIds: string[] | null;
  thread: TargetInput['thread'] | null;
}

export interface Draft {
  content: string;
  mediaIds: string[];
  variants: Variant[];
}

export const variantOf = (channelId: string): Variant => ({
  channelId,
  override: false,
  content: '',
  firstComment: '',
  mediaIds: null,
  thread: null,
});

/** The post's targets as variants: a target with its own text is an overridden variant. */
export const variantsOfPost = (post: Post | undefined): Variant[] =>
  (post?.targets ?? []).map((target) => ({
    channelId: target.channelId,
    override: target.content !== null,
    content: target.content ?? '',
    firstComment: target.firstComment ?? '',
    mediaIds: target.mediaIds,
    thread: target.thread,
  }));

/** The text a variant sends: its own, or the shared text as it is now. */
export const textOf = (draft: Draft, variant: Variant) =>
  variant.override ? variant.content : draft.content;

/** The targets as the API takes them; left-out fields fall back to the post's. */
export const targetsOf = (draft: Draft): TargetInput[] =>
  draft.variants.map((v) => ({
    channelId: v.channelId,
    ...(v.override ? { content: v.content } : {}),
    ...(v.firstComment.trim() ? { firstComment: v.firstComment } : {}),
    ...(v.mediaIds ? { mediaIds: v.mediaIds } : {}),
    ...(v.thread ? { thread: v.thread } : {}),
  }));

/** A variant's length as its network counts it, against its channel's limit. */
export function counterOf(channel: Channel, text: string) {
  const used = countLength(channel.limits.lengthRule, text);
  return { used, max: channel.limits.maxLength, over: used - channel.limits.maxLength };
}

/**
 * What each network would refuse, checked here as the user types with the same code the server
 * runs (the server's answer adds what only it knows: unknown media, a network's own rules).
 */
export function localIssues(
  draft: Draft,
  channels: ReadonlyMap<string, Channel>,
  media: ReadonlyMap<string, Media>,
): Issue[] {
  const facts = (ids: string[]) =>
    ids.flatMap((id) => {
      const item = media.get(id);
      return item ? [{ id, mimeType: item.mimeType, size: item.size }] : [];
    });
  return draft.variants.flatMap((variant, index) => {
    const channel = channels.get(variant.channelId);
    if (!channel) return [];
    const parts = [
      { content: textOf(draft, variant), media: facts(variant.mediaIds ?? draft.mediaIds) },
      ...(variant.thread ?? []).map((part) => ({
        content: part.content,
        media: facts(part.mediaIds ?? []),
      })),
    ];
    return targetIssues({
      limits: channel.limits,
      name: NETWORK_NAMES[channel.integrationId],
      target: { parts, firstComment: variant.firstComment.trim() ? variant.firstComment : null },
      path: `targets[${index}]`,
    });
  });
}

/** Issues from both checks, each once. */
export const mergeIssues = (...lists: Issue[][]) => {
  const seen = new Set<string>();
  return lists.flat().filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Which field of the composer an issue's path names. */
export function fieldOf(path: string): { target?: number; field: string } {
  const match = /^targets\[(\d+)\](?:\.(\w+))?/.exec(path);
  if (!match) return { field: path.split(/[.[]/)[0] ?? '' };
  return { target: Number(match[1]), field: match[2] ?? 'channelId' };
}
