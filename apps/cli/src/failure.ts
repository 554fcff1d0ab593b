import { AppError } from '@chorus/services';

/** What a PostgreSQL error class says, for the classes an operator meets on a first connect. */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection failed',
  '28': 'authentication failed',
  '3D': 'database does not exist',
  '53': 'server out of resources',
  '57': 'server shutting down or refusing connections',
};

/**
 * The code that says where to look: a system error's (ECONNREFUSED, ENOENT) or PostgreSQL's
 * SQLSTATE (28P01). Neither holds anything secret. The driver's error is often the cause of the
 * one thrown (Drizzle wraps it with the query), or one of several (a host with two addresses),
 * so the chain is followed a few steps.
 */
function codeOf(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code)) return ` (${code})`;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    const meaning = SQLSTATE_CLASSES[code.slice(0, 2)];
    return meaning ? ` (${meaning}, SQLSTATE ${code})` : ` (SQLSTATE ${code})`;
  }
  for (const next of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    const found = codeOf(next, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The sentence printed for a failed command. A refusal says its own; anything else is said
 * generically, because a database error's message carries the SQL and its parameters (a new
 * key's hash among them) and secrets stay out of output (docs/security.md). A system error's
 * code (ECONNREFUSED, ENOENT) or a SQLSTATE is kept: it says where to look and holds nothing
 * secret.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return `Unexpected failure${codeOf(error) ?? ''}; its details are not shown, as they can hold secrets.`;
}
