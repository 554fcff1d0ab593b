import { AppError } from '@chorus/services';
import { controlProblem, issuePath } from '@chorus/validators';

type Path = (string | number)[];

/** Where the first string or key with a control character is in a client's input, and why. */
function findControl(value: unknown, path: Path): { path: Path; message: string } | null {
  if (typeof value === 'string') {
    const message = controlProblem(value);
    return message ? { path, message } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    // A list's item by its index (`tags[1]`), as every issue's path names it.
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    const message = controlProblem(key);
    if (message) return { path: at, message };
    const found = findControl(child, at);
    if (found) return found;
  }
  return null;
}

/**
 * The edge's rule for text (validators' `controlProblem`), on every door before anything reads
 * the input (body, query or path): a NUL, which PostgreSQL's text and jsonb cannot hold, or
 * another control character (tab and line breaks aside, which single-line fields refuse
 * themselves) is a 400 naming where it is, never a database error answered as 500.
 */
export function controlRefusal(input: unknown): AppError | null {
  const issue = controlIssue(input);
  if (!issue) return null;
  return new AppError('validation_error', 'The request is not valid.', { issues: [issue] });
}

/** The same rule as one issue, for a caller that reports it its own way (an import's row). */
export function controlIssue(input: unknown): { path: string; message: string } | null {
  const found = findControl(input, []);
  // The path may hold the very character refused: escaped, never echoed raw.
  return found && { path: issuePath(found.path), message: found.message };
}
