import { SCOPES, type Scope } from '@chorus/validators';
import { OAuthError } from './errors';

const KNOWN = new Set<string>(SCOPES);

/**
 * A `scope` parameter: separated by spaces (RFC 6749 §3.3) or commas (the API spec), either
 * or both. Every scope must be one we know and one of `allowed`: at authorization, the
 * client's registered scopes; on a refresh, the grant's (RFC 6749 §6: no scope not
 * originally granted), which the refusal then names as such, since the client may well be
 * registered for it.
 */
export function parseScope(
  value: string | undefined,
  allowed: readonly string[],
  allowedBy: 'client' | 'grant' = 'client',
): Scope[] {
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
      allowedBy === 'grant'
        ? `Scope not granted: ${refused.join(', ')}. A refresh may ask for the grant's scopes or fewer; for more, send the user to authorize again.`
        : `Scope not allowed for this client: ${refused.join(', ')}.`,
    );
  }
  return names as Scope[];
}

/** The canonical form we answer with: space-separated, as RFC 6749 writes it. */
export const formatScope = (scopes: readonly string[]) => scopes.join(' ');
