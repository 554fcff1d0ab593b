import type { AppRouter } from '@chorus/api';
import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import { ChorusApiError } from './errors';

export { ChorusApiError } from './errors';

export interface ChorusClientOptions {
  /** Where Chorus is served, e.g. `https://chorus.example.com`. */
  url: string;
  /** An API key (`csk_live_…`) or an OAuth access token, sent as a bearer token. */
  token: string;
  /** Another `fetch` (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

export type ChorusClient = TRPCClient<AppRouter>;

/** Calls of `query`/`mutate` answer the same, and throw `ChorusApiError` when they fail. */
function withApiErrors<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (key === 'query' || key === 'mutate') {
        const call = value as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) =>
          call(...args).catch((error: unknown) => {
            throw ChorusApiError.from(error);
          });
      }
      return (typeof value === 'function' || typeof value === 'object') && value !== null
        ? withApiErrors(value)
        : value;
    },
  });
}

/**
 * A typed client for internal apps: every procedure of the API, with its input and output
 * types, over the tRPC door (`/api/trpc`, calls made in the same tick batched into one
 * request). The same rules as REST apply: scopes, roles, tenancy, rate limits.
 *
 *     const chorus = createChorusClient({ url, token });
 *     const { data } = await chorus.users.list.query({ limit: 10 });
 */
export function createChorusClient(options: ChorusClientOptions): ChorusClient {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${options.url.replace(/\/+$/, '')}/api/trpc`,
        headers: () => ({ authorization: `Bearer ${options.token}` }),
        fetch: options.fetch,
      }),
    ],
  });
  return withApiErrors(client);
}
