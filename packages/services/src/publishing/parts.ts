import type { ThreadPart } from '@chorus/db';

/** What one part of a target sends: its text and its media's ids, in order. */
export interface PartSpec {
  text: string;
  mediaIds: string[];
}

/**
 * What each part of a target sends (docs/publishing.md, Targets): the first is its own
 * `content` and `mediaIds`, each falling back to the post's; the others are its thread. The
 * engine sends these (prepare.ts), and a revision compares them (posts/revise.ts).
 */
export function partSpecs(
  target: { content: string | null; mediaIds: string[] | null; thread: ThreadPart[] | null },
  post: { content: string | null | undefined; mediaIds: string[] | undefined },
): PartSpec[] {
  return [
    {
      text: target.content ?? post.content ?? '',
      mediaIds: target.mediaIds ?? post.mediaIds ?? [],
    },
    ...(target.thread ?? []).map((part) => ({ text: part.content, mediaIds: part.mediaIds ?? [] })),
  ];
}
