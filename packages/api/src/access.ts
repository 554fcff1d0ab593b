import type { Principal } from '@chorus/auth';
import { AppError } from '@chorus/services';
import type { Scope } from '@chorus/validators';

/** Requires every named scope of the credential (decisions §2: scopes never imply others). */
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
