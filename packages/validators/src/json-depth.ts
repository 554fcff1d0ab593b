/**
 * The most a request's JSON may nest (objects and arrays). Real inputs nest a few levels;
 * recursive readers (JSON.parse's reviver, the NUL check, zod) overflow the stack at a few
 * thousand, which must be a 400, never a 500.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep `text` nests, counted in one pass without recursion (so any depth is measured
 * safely), before anything parses it. Brackets inside strings do not count. Stops counting
 * once past `limit`: the caller only needs to know it is too deep.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character: skip it.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** True when `text` nests deeper than MAX_JSON_DEPTH. */
export const tooDeep = (text: string) => jsonDepth(text) > MAX_JSON_DEPTH;
