import { AppError } from '@chorus/services';

const MESSAGE = 'Must not contain NUL characters.';

/** The path of the first string or key holding U+0000 in a client's input, if any. */
function findNul(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, key];
    if (key.includes('\0')) return at;
    const found = findNul(child, at);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL's text and jsonb cannot hold U+0000: a NUL anywhere in the input (body, query or
 * path, on every door) is a 400 naming where it is, never a database error answered as 500.
 */
export function nulRefusal(input: unknown): AppError | null {
  const path = findNul(input, []);
  if (!path) return null;
  return new AppError('validation_error', 'The request is not valid.', {
    issues: [{ path: path.join('.'), message: MESSAGE }],
  });
}
