import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type {
  inferProcedureInput,
  inferRouterInputs,
  inferRouterOutputs,
  inferTransformedProcedureOutput,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCRouterRecord,
} from '@trpc/server';
import { ChorusApiError } from './errors.js';
import type { AppRouter } from './router.js';

export { ChorusApiError } from './errors.js';
export type { AppRouter } from './router.js';

/** What each procedure takes: `ChorusInputs['posts']['create']`. */
export type ChorusInputs = inferRouterInputs<AppRouter>;
/** What each procedure answers: `ChorusOutputs['users']['list']`. */
export type ChorusOutputs = inferRouterOutputs<AppRouter>;

export interface ChorusClientOptions {
  /** Where Chorus is served, e.g. `https://chorus.example.com`. */
  url: string;
  /** An API key (`csk_live_…`) or an OAuth access token, sent as a bearer token. */
  token: string;
  /** Another `fetch` (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /**
   * The most calls sent in one request: the server's `CHORUS_TRPC_MAX_BATCH` (20 by default,
   * which this defaults to). A server set lower refuses larger batches; set this to match it.
   */
  maxBatchSize?: number;
}

/** The server's default `CHORUS_TRPC_MAX_BATCH`: more calls in one request are refused. */
export const DEFAULT_MAX_BATCH_SIZE = 20;

/**
 * The longest URL a batch of queries is sent in (their inputs ride in the query string): more
 * calls go as several requests. Below Node's default header limit (16 KB), past which the
 * server refuses the request before tRPC reads it.
 */
const MAX_URL_LENGTH = 8_000;

/** Options of one call. */
export interface ChorusCallOptions {
  /** Aborts the call: it then rejects with `ChorusApiError` (`network_error`). */
  signal?: AbortSignal;
}

/**
 * The procedures of `TRecord` as calls: `query` for reads, `mutate` for writes, nested
 * routers as objects. Written with `@trpc/server`'s types only rather than as `@trpc/client`'s
 * `TRPCClient`, whose declarations reach its WebSocket link and need `ws`'s types, which do
 * not check under `NodeNext` without `skipLibCheck` (tRPC 11.22's `import ws from "ws"`).
 */
export type ChorusProcedures<TRecord> = {
  [K in keyof TRecord]: TRecord[K] extends TRPCQueryProcedure<infer _>
    ? {
        query(
          input: inferProcedureInput<TRecord[K]>,
          options?: ChorusCallOptions,
        ): Promise<inferTransformedProcedureOutput<AppRouter, TRecord[K]>>;
      }
    : TRecord[K] extends TRPCMutationProcedure<infer _>
      ? {
          mutate(
            input: inferProcedureInput<TRecord[K]>,
            options?: ChorusCallOptions,
          ): Promise<inferTransformedProcedureOutput<AppRouter, TRecord[K]>>;
        }
      : TRecord[K] extends TRPCRouterRecord
        ? ChorusProcedures<TRecord[K]>
        : never;
};

export type ChorusClient = ChorusProcedures<AppRouter['_def']['record']>;

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
        // The server refuses a batch of more calls than CHORUS_TRPC_MAX_BATCH: more calls in
        // one tick go as several requests.
        maxItems: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
        maxURLLength: MAX_URL_LENGTH,
      }),
    ],
  });
  // The same object tRPC builds: its proxy answers every path with `query` and `mutate`.
  return withApiErrors(client) as unknown as ChorusClient;
}
