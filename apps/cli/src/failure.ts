import { AppError } from '@chorus/services';

/**
 * The sentence printed for a failed command. A refusal says its own; anything else is said
 * generically, because a database error's message carries the SQL and its parameters (a new
 * key's hash among them) and secrets stay out of output (docs/security.md). A system error's
 * code (ECONNREFUSED, ENOENT) is kept: it says where to look and holds nothing secret.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const hint = typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code) ? ` (${code})` : '';
  return `Unexpected failure${hint}; its details are not shown, as they can hold secrets.`;
}
