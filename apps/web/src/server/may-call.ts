import { appRouter } from '@chorus/api';
import type { Principal } from '@chorus/auth';

type Access = { scopes: readonly string[]; role?: string };
type ProcedureDef = { _def: { meta?: { access?: Access } } };

/**
 * Whether the procedure's own access rule (its scopes, and its role tier when it has one)
 * lets this principal call it. Pages hide a control the API would refuse by reading the rule
 * where the API declares it, rather than restating it.
 */
export function mayCall(principal: Principal, path: `${string}.${string}`): boolean {
  // Keyed by dotted path at run time (as the REST door reads them), whatever the type says.
  const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;
  const access = procedures[path]?._def.meta?.access;
  if (!access) throw new Error(`${path} declares no access rule`);
  const scoped = access.scopes.every((scope) => principal.scopes.some((held) => held === scope));
  return scoped && (!access.role || access.role === principal.role);
}
