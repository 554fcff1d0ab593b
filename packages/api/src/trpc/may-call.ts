import type { Principal } from '@chorus/auth';
import { accessBreach } from '../server/access';
import { accessRuleOf } from './access-rules';

/**
 * Whether the procedure's own access rule (its scopes, and its role tier when it has one)
 * lets this principal call it, checked as the procedure checks it. Pages hide a control the
 * API would refuse by reading the rule where the API declares it, rather than restating it.
 */
export function mayCall(principal: Principal, path: `${string}.${string}`): boolean {
  const rule = accessRuleOf(path);
  if (!rule) throw new Error(`${path} declares no access rule`);
  return accessBreach(principal, rule) === null;
}
