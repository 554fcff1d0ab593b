import {
  countLength,
  isLockedTarget,
  NETWORK_NAMES,
  targetIssues,
  type Channel,
  type Issue,
  type Media,
  type Post,
  type Target,
  type TargetInput,
} from '@chorus/validators';

/**
 * A target that went out (published) or may have (unconfirmed): the composer sends it back as
 * the post has it and offers no way to drop or change it, as the API would refuse either
 * (docs/publishing.md, Targets).
 */
export interface Locked {
  status: 'published' | 'unconfirmed';
  url: string | null;
  /** The target as the API takes it back. */
  target: TargetInput;
}

/** One chosen channel in the composer: its own text when overridden, else the shared text. */
export interface Variant {
  channelId: string;
  override: boolean;
  content: string;
  firstComment: string;
  /** Kept as the post has them (the composer does not edit these yet). */
  mediaIds: string[] | null;
  thread: TargetInput['thread'] | null;
  locked: Locked | null;
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
  locked: null,
});

/** A post's target as its lock, when it is locked. */
const lockOf = (target: Target): Locked | null =>
  isLockedTarget(target)
    ? {
        status: target.status === 'published' ? 'published' : 'unconfirmed',
        url: target.url,
        target: {
          channelId: target.channelId,
          ...(target.content !== null ? { content: target.content } : {}),
          ...(target.mediaIds !== null ? { mediaIds: target.mediaIds } : {}),
          ...(target.firstComment !== null ? { firstComment: target.firstComment } : {}),
          ...(target.thread !== null ? { thread: target.thread } : {}),
        },
      }
    : null;

/** The post's targets as variants: a target with its own text is an overridden variant. */
export const variantsOfPost = (post: Post | undefined): Variant[] =>
  (post?.targets ?? []).map((target) => ({
    channelId: target.channelId,
    override: target.content !== null,
    content: target.content ?? '',
    firstComment: target.firstComment ?? '',
    mediaIds: target.mediaIds,
    thread: target.thread,
    locked: lockOf(target),
  }));

/** The channels whose targets are locked, each with why, in words. */
export function lockReasons(variants: Variant[]): Map<string, string> {
  return new Map(
    variants.flatMap((v) =>
      v.locked
        ? [
            [
              v.channelId,
              v.locked.status === 'published'
                ? 'Published: a post goes to a channel once, so this one stays as it was sent.'
                : 'Unconfirmed: it may already be on the network, so it stays as it is until it is resolved (Resolve…, above).',
            ] as const,
          ]
        : [],
    ),
  );
}

/** The text a variant sends: its own, or the shared text as it is now. */
export const textOf = (draft: Draft, variant: Variant) =>
  variant.override ? variant.content : draft.content;

/** The targets as the API takes them; left-out fields fall back to the post's. */
export const targetsOf = (draft: Draft): TargetInput[] =>
  draft.variants.map((v) =>
    v.locked
      ? v.locked.target
      : {
          channelId: v.channelId,
          ...(v.override ? { content: v.content } : {}),
          ...(v.firstComment.trim() ? { firstComment: v.firstComment } : {}),
          ...(v.mediaIds ? { mediaIds: v.mediaIds } : {}),
          ...(v.thread ? { thread: v.thread } : {}),
        },
  );

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
    // A locked target is not sent again: nothing in it is held against the post.
    if (!channel || variant.locked) return [];
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
