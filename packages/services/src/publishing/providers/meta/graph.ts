import { z, type ZodType } from 'zod';
import { networkFetch, readAnswer } from '../../http';
import { multipartBody, type MultipartFile } from '../common/multipart';
import { ProviderError } from '../common/provider-error';
import type { DiscoveredChannel, ProviderContext, ProviderCredentials } from '../../provider';

/**
 * Calls to Meta's Graph hosts (graph.facebook.com, graph.instagram.com, graph.threads.net), which
 * share one shape: versioned paths under the context's `apiUrl`, the token as a bearer header,
 * form-encoded parameters, JSON answers.
 */

/**
 * A failed call that repeating can never turn into a second post (a read, a container, an
 * unpublished photo): even when its outcome is unknown it is safe to retry.
 */
export class RetrySafe extends Error {
  override readonly name = 'RetrySafe';
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : 'A Graph call failed');
  }
}

export const ZId = z.object({ id: z.string().min(1) });

/**
 * Reads media from storage (a stream, a signed URL) before a call: a failure there happens
 * before anything reached the network, so it is transient, never an unknown outcome.
 */
export async function fromStorage<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    // The storage's own words (a path, a bucket) are the worker's log's, not the account's.
    throw new ProviderError(
      { class: 'transient', message: 'The media could not be read from storage.' },
      { cause: error },
    );
  }
}

/** Parameters of a call; those left `undefined` (or null) are not sent. */
export type GraphParams = Record<string, string | null | undefined>;
const sent = (params: GraphParams) =>
  Object.fromEntries(
    Object.entries(params).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );

export class Graph {
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly signal?: AbortSignal,
  ) {}

  url(path: string, query: Record<string, string> = {}) {
    const url = new URL(`${this.base.replace(/\/+$/, '')}/${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  /** Reads are always safe to repeat. */
  get<T>(path: string, schema: ZodType<T>, query: Record<string, string> = {}) {
    return this.call(schema, this.url(path, query), { method: 'GET' }, true);
  }

  post<T>(path: string, schema: ZodType<T>, params: GraphParams, safe = false) {
    return this.call(
      schema,
      this.url(path),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(sent(params)),
      },
      safe,
    );
  }

  /** A multipart upload, the file streamed; `base` for hosts of their own (Facebook's video host). */
  upload<T>(
    path: string,
    schema: ZodType<T>,
    params: GraphParams,
    file: MultipartFile,
    options: { safe?: boolean; base?: string } = {},
  ) {
    const { body, headers } = multipartBody(Object.entries(sent(params)), file);
    const url = options.base ? new Graph(options.base, this.token).url(path) : this.url(path);
    // Node's fetch sends a stream body only as a half-duplex request.
    const init = { method: 'POST', headers, body, duplex: 'half' } as RequestInit;
    return this.call(schema, url, init, options.safe ?? false);
  }

  private async call<T>(schema: ZodType<T>, url: URL, init: RequestInit, safe: boolean) {
    try {
      const res = await networkFetch(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          authorization: `Bearer ${this.token}`,
        },
        signal: this.signal,
      });
      return schema.parse(await readAnswer(res, url));
    } catch (error) {
      throw safe ? new RetrySafe(error) : error;
    }
  }
}

const ZToken = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
});

/**
 * A token endpoint's answer as credentials (Meta's long-lived token exchange and refresh answer
 * `{ access_token, token_type, expires_in }`). The token travels in the query, as Meta documents.
 */
export async function tokenRequest(
  url: URL,
  signal: AbortSignal | undefined,
  now = Date.now(),
): Promise<ProviderCredentials> {
  try {
    const res = await networkFetch(url, { method: 'GET', signal });
    const { access_token, expires_in } = ZToken.parse(await readAnswer(res, url));
    return {
      accessToken: access_token,
      ...(expires_in ? { expiresAt: new Date(now + expires_in * 1000).toISOString() } : {}),
    };
  } catch (error) {
    throw new RetrySafe(error);
  }
}

/**
 * Instagram's and Threads' long-lived tokens (sixty days), at their hosts' unversioned root:
 * at connect, when the context carries our app's secret, the one-hour token of the OAuth code
 * exchange is traded for one (`{prefix}_exchange_token`); `refresh` renews a still-valid one
 * for sixty more days (`{prefix}_refresh_token`). `prefix` is `ig` (Instagram) or `th` (Threads).
 */
export const longLivedTokens = (prefix: 'ig' | 'th') => {
  const call = (context: ProviderContext, path: string, params: Record<string, string>) =>
    tokenRequest(
      new URL(`${new URL(context.apiUrl).origin}/${path}?${new URLSearchParams(params)}`),
      context.signal,
    );
  return {
    /** The login's one channel, as `describe` reads it, holding the sixty-day token if traded. */
    async discover(
      credentials: ProviderCredentials,
      context: ProviderContext,
      describe: (graph: Graph) => Promise<Omit<DiscoveredChannel, 'credentials'>>,
    ): Promise<DiscoveredChannel[]> {
      const traded = context.oauth
        ? await call(context, 'access_token', {
            grant_type: `${prefix}_exchange_token`,
            client_secret: context.oauth.clientSecret,
            access_token: credentials.accessToken,
          })
        : undefined;
      const token = traded?.accessToken ?? credentials.accessToken;
      const channel = await describe(new Graph(context.apiUrl, token, context.signal));
      return [{ ...channel, ...(traded ? { credentials: traded } : {}) }];
    },
    refresh: async (credentials: ProviderCredentials, context: ProviderContext) => ({
      ...(await call(context, 'refresh_access_token', {
        grant_type: `${prefix}_refresh_token`,
        access_token: credentials.accessToken,
      })),
      ...(credentials.extra ? { extra: credentials.extra } : {}),
    }),
  };
};
