import twitter from 'twitter-text';

/**
 * How a network counts a post's length. Each is that network's own published rule; the
 * composer and the server count with these same functions, so they never disagree.
 * - `graphemes`: user-perceived characters (Bluesky: app.bsky.feed.post's maxGraphemes).
 * - `x-weighted`: X's weighted count (twitter-text: URLs 23, CJK and emoji 2).
 * - `mastodon`: graphemes, a URL with its scheme counts 23, `@user@domain` counts as `@user`
 *   (Mastodon's StatusLengthValidator).
 * - `threads`: characters, an emoji counting its UTF-8 bytes (Threads' posts documentation).
 * - `characters`: Unicode code points (LinkedIn, Facebook, Instagram).
 */
export const LENGTH_RULES = [
  'graphemes',
  'x-weighted',
  'mastodon',
  'threads',
  'characters',
] as const;
export type LengthRule = (typeof LENGTH_RULES)[number];

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string) => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
};

const URL_PLACEHOLDER = 'x'.repeat(23);
/** A remote mention's domain is not counted: `@alice@example.social` counts as `@alice`. */
const REMOTE_MENTION =
  /(^|[^\p{L}\p{N}_/])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)@[\p{L}\p{N}.-]+[\p{L}\p{N}]/giu;

function mastodonCountable(text: string): string {
  const urls = twitter.extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: false });
  let out = '';
  let at = 0;
  for (const { indices } of urls) {
    out += text.slice(at, indices[0]) + URL_PLACEHOLDER;
    at = indices[1];
  }
  out += text.slice(at);
  return out.replace(REMOTE_MENTION, '$1@$2');
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const utf8 = new TextEncoder();

function threadsLength(text: string): number {
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    count += PICTOGRAPHIC.test(segment) ? utf8.encode(segment).length : [...segment].length;
  }
  return count;
}

/** The length of `text` as the network with this rule counts it. */
export function countLength(rule: LengthRule, text: string): number {
  switch (rule) {
    case 'graphemes':
      return graphemes(text);
    case 'x-weighted':
      return twitter.parseTweet(text).weightedLength;
    case 'mastodon':
      return graphemes(mastodonCountable(text));
    case 'threads':
      return threadsLength(text);
    case 'characters':
      return [...text].length;
  }
}
