import type { ProviderContext } from '../../provider';
import { requestJson, type NetworkInit } from '../common/json';

/**
 * LinkedIn's versioned REST API (https://learn.microsoft.com/linkedin/marketing/versioning):
 * every call names the monthly version it was written against and Rest.li protocol 2.0.0.
 * A version is served for a year after its release; move this forward before then.
 */
export const LINKEDIN_VERSION = '202610';

export const apiBase = (context: ProviderContext) => context.apiUrl.replace(/\/+$/, '');

/** One member's (or organisation poster's) calls under `/rest`, `/v2`, or to an upload URL. */
export function linkedinApi(context: ProviderContext, accessToken: string) {
  const base = apiBase(context);
  const call = (url: string, init: NetworkInit = {}) =>
    requestJson(url.startsWith('/') ? `${base}${url}` : url, {
      signal: context.signal,
      ...init,
      headers: {
        authorization: `Bearer ${accessToken}`,
        'linkedin-version': LINKEDIN_VERSION,
        'x-restli-protocol-version': '2.0.0',
        ...init.headers,
      },
    });
  return {
    get: async (path: string) => (await call(path)).data,
    post: (path: string, json: unknown) => call(path, { method: 'POST', json }),
    /** A PUT of bytes to an upload URL LinkedIn handed out. */
    put: (url: string, init: NetworkInit) => call(url, { method: 'PUT', ...init }),
  };
}

export type LinkedInApi = ReturnType<typeof linkedinApi>;

/** A Rest.li 2.0 list parameter: `List(urn%3Ali%3Ashare%3A1,…)`. */
export const restliList = (values: string[]) =>
  `List(${values.map((value) => encodeURIComponent(value)).join(',')})`;

/** Where a person sees a post. */
export const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;
