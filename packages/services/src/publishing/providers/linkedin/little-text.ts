/**
 * A post's text as LinkedIn's `commentary` takes it, in "little text": the reserved characters
 * `|{}@[]()<>#\*_~` are escaped with a backslash (unescaped, LinkedIn refuses or cuts the
 * text), and hashtags become hashtag templates (`{hashtag|#|word}`) so they stay hashtags.
 * https://learn.microsoft.com/linkedin/marketing/community-management/shares/little-text-format
 */
const RESERVED = /[|{}@[\]()<>#\\*_~]/g;
const HASHTAG = /(^|\s)#([\p{L}\p{N}]+)/gu;

export function littleText(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(HASHTAG)) {
    const start = (match.index ?? 0) + (match[1]?.length ?? 0);
    out += text.slice(at, start).replace(RESERVED, '\\$&') + `{hashtag|#|${match[2]}}`;
    at = start + 1 + (match[2]?.length ?? 0);
  }
  return out + text.slice(at).replace(RESERVED, '\\$&');
}
