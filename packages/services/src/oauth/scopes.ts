import { SCOPES, type Scope } from '@chorus/validators';
import { OAuthError } from './errors';

const KNOWN = new Set<string>(SCOPES);

/**
 * A `scope` parameter: separated by spaces (RFC 6749 §3.3) or commas (the API spec), either
 * or both. Every scope must be one we know and one the client may ask for.
 */
export function parseScope(value: string | undefined, allowed: readonly string[]): Scope[] {
  const names = [...new Set((value ?? '').split(/[\s,]+/).filter(Boolean))];
  if (names.length === 0) throw new OAuthError('invalid_scope', 'The scope parameter is required.');
  const unknown = names.filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) {
    throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);
  }
  const refused = names.filter((name) => !allowed.includes(name));
  if (refused.length > 0) {
    throw new OAuthError(
      'invalid_scope',
      `Scope not allowed for this client: ${refused.join(', ')}.`,
    );
  }
  return names as Scope[];
}

/** The canonical form we answer with: space-separated, as RFC 6749 writes it. */
export const formatScope = (scopes: readonly string[]) => scopes.join(' ');
