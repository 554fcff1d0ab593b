import type { Principal } from '@chorus/auth';
import { AppError } from '@chorus/services';
import type { Role, Scope } from '@chorus/validators';

/** Requires every named scope of the credential (docs/security.md: scopes never imply others). */
export function requireScopes(principal: Principal, scopes: readonly Scope[]) {
  const missing = scopes.filter((scope) => !principal.scopes.includes(scope));
  if (missing.length > 0) {
    throw new AppError(
      'insufficient_scope',
      `This credential lacks the scope ${missing.join(', ')}.`,
      {
        requiredScopes: scopes,
      },
    );
  }
}

/** What a procedure's caller must be; each tier checks it in this order. */
export interface AccessRule {
  /** Signed in to the dashboard (a session), not a bearer token. */
  dashboard?: true;
  scopes?: readonly Scope[];
  role?: Role;
}

/**
 * The first rule the caller breaks, in the order of docs/security.md: who, how, scopes, role. The
 * pipeline's access stage (server/pipeline.ts, before an Idempotency-Key is claimed or replayed:
 * a stored answer goes only to a caller who may make the request), and each procedure tier's
 * second look.
 */
export function accessBreach(principal: Principal | null, rule: AccessRule): AppError | null {
  if (!principal) return new AppError('unauthorized', 'Authentication required.');
  if (rule.dashboard && principal.credential.kind !== 'session') {
    return new AppError('forbidden', 'This is done in the dashboard, signed in.');
  }
  try {
    if (rule.scopes) requireScopes(principal, rule.scopes);
  } catch (error) {
    return error as AppError;
  }
  if (rule.role === 'admin' && principal.role !== 'admin') {
    return new AppError('forbidden', 'Only admins can do this.');
  }
  return null;
}
