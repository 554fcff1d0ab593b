import { AppError } from '@chorus/services';
import { ForbiddenKeyError, issuePath, parseJsonSafely } from '@chorus/validators';

/** A reserved key (`__proto__`, `constructor`, `prototype`), named by its path from the top. */
export const reservedKey = (path: (string | number)[]) =>
  new AppError(
    'validation_error',
    `The key "${path[path.length - 1] ?? ''}" is not allowed in a request.`,
    { issues: [{ path: issuePath(path), message: 'This key name is reserved.' }] },
  );

/** Text that may name a reserved key: one spelled out, or any `\u` escape, which could. */
const MAY_NAME = /__proto__|constructor|prototype|\\u/;

/**
 * Refuses JSON naming a reserved key (400), as the REST door's body reader does, for a reader
 * that parses the text itself (tRPC's); JSON that does not parse is left to that reader. Only
 * text that may name one is parsed here, so the common request pays a scan, not a parse.
 */
export function refuseReservedKeys(text: string) {
  if (!MAY_NAME.test(text)) return;
  try {
    parseJsonSafely(text);
  } catch (error) {
    if (error instanceof ForbiddenKeyError) throw reservedKey(error.path);
  }
}
