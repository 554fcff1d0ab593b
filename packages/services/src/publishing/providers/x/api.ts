import type { ProviderContext } from '../../provider';
import { bearerCall } from '../common/json';

/** X API v2 as one user (OAuth 2.0 user context, a bearer token): https://api.x.com by default. */
export function xApi(context: ProviderContext, accessToken: string) {
  const call = bearerCall(context.apiUrl, accessToken, context);
  return {
    call,
    get: (path: string) => call(path),
    post: (path: string, json: unknown = {}) => call(path, { method: 'POST', json }),
    signal: context.signal,
  };
}

export type XApi = ReturnType<typeof xApi>;
