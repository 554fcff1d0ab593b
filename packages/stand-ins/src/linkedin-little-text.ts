/**
 * LinkedIn's "little text" format of a post's `commentary`: the characters `|{}@[]()<>#\*_~`
 * are reserved and must be escaped with a backslash, except in the templates for a mention
 * (`@[Name](urn:li:organization:123)`), a hashtag (`#word`) and the hashtag template
 * (`{hashtag|#|word}`, the sign `#` or `＃`).
 */
const RESERVED = new Set('|{}@[]()<>#\\*_~');
const TEMPLATE = /^\{hashtag\|[#＃]\|([^{}|\\]+)\}/;
const HASHTAG = /^#([\p{L}\p{N}]+)/u;
const MENTION = /^@\[([^\]]+)\]\((urn:li:(?:person|organization):[^)]+)\)/;

/** The text a reader sees, or where the first unescaped reserved character is. */
export function renderLittleText(commentary: string): { text: string } | { unescapedAt: number } {
  let text = '';
  for (let at = 0; at < commentary.length; at++) {
    const char = commentary.charAt(at);
    const rest = commentary.slice(at);
    const element =
      char === '{'
        ? TEMPLATE.exec(rest)
        : char === '#'
          ? HASHTAG.exec(rest)
          : char === '@'
            ? MENTION.exec(rest)
            : null;
    if (element) {
      text += char === '@' ? element[1] : `#${element[1]}`;
      at += element[0].length - 1;
    } else if (char === '\\' && at + 1 < commentary.length) {
      text += commentary.charAt(++at);
    } else if (RESERVED.has(char)) {
      return { unescapedAt: at };
    } else {
      text += char;
    }
  }
  return { text };
}
