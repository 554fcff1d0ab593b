import type { IncomingMessage } from 'node:http';
import type { Answer } from './faults';
import type { LinkedInGrant, LinkedInWorld } from './linkedin-world';

/** What a LinkedIn route is given: the request, its JSON body and the caller's grant. */
export interface LinkedInContext {
  req: IncomingMessage;
  url: URL;
  /** The JSON body (null-prototype), or undefined when there is none or it is not JSON. */
  json: Record<string, unknown> | undefined;
  raw: Buffer;
  grant: LinkedInGrant | undefined;
  world: LinkedInWorld;
}

/** LinkedIn's error body: `{ status, serviceErrorCode, code, message }`. */
export const liError = (
  status: number,
  code: string,
  message: string,
  serviceErrorCode = 100,
): Answer => ({ status, body: { status, serviceErrorCode, code, message } });

/** A field the Rest.li schema refuses, worded as LinkedIn's validation errors are. */
export const unprocessable = (path: string, problem: string): Answer =>
  liError(422, 'UNPROCESSABLE_ENTITY', `ERROR :: ${path} :: ${problem}\n`);

/** The caller's member id when the grant carries one of `scopes`, else LinkedIn's refusal. */
export function memberWith(ctx: LinkedInContext, scopes: string[], resource: string) {
  if (!ctx.grant) return liError(401, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token', 65604);
  if (!scopes.some((scope) => ctx.grant?.scopes.includes(scope))) {
    return liError(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource}`);
  }
  return ctx.grant.memberId;
}

/** The values of a Rest.li 2.0 list parameter, `List(a,b)` (URNs inside are URL-encoded). */
export function listParam(value: string | null): string[] {
  const match = /^List\((.*)\)$/.exec(value ?? '');
  if (!match?.[1]) return [];
  return match[1].split(',').map((item) => decodeURIComponent(item));
}

export const objectField = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
