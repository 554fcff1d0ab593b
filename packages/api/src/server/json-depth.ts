import { AppError } from '@chorus/services';
import { MAX_JSON_DEPTH, tooDeep } from '@chorus/validators';

/**
 * Refuses JSON that nests deeper than MAX_JSON_DEPTH with 400 `invalid_json`, on both doors,
 * before anything that recurses reads it (a 5,000-level body overflowed the stack: a 500).
 */
export function refuseDeepJson(text: string) {
  if (!tooDeep(text)) return;
  throw new AppError(
    'invalid_json',
    `The JSON nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
    { maxDepth: MAX_JSON_DEPTH },
  );
}
