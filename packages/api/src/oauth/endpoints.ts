import type { Database } from '@chorus/db';
import {
  appOrigin,
  authenticateClient,
  authorizationServerMetadata,
  grantTokens,
  introspectToken,
  OAuthError,
  revokeToken,
  type OAuthClientRow,
} from '@chorus/services';
import { log } from '../server/logger';
import type { Answer } from '../server/node-fetch';
import type { Admitted } from '../server/pipeline';
import { requestIdFor } from '../server/request-id';
import { json, responseHeaders } from '../server/respond';
import { clientIp, type TrustedProxies } from '../rate-limit/client-ip';
import { clientCredentials, readParams, usesBasic } from './request';

export interface OAuthEndpointsOptions {
  getDatabase: () => Promise<Database>;
  /** Who may name the client's address (default: CHORUS_TRUSTED_PROXIES). */
  trustedProxies?: TrustedProxies;
}

/** What an endpoint is handed by the pipeline (server/pipeline.ts). */
export type OAuthCall = Pick<Admitted, 'req' | 'body' | 'headers'>;

/** Token answers must not be cached anywhere (RFC 6749 §5.1). */
export function noStore(headers: Headers): Headers {
  headers.set('Cache-Control', 'no-store');
  headers.set('Pragma', 'no-cache');
  return headers;
}

/**
 * The origin the client reached, from the Host the request was sent to (Next hands route
 * handlers a URL on its own listening name, not necessarily the one the client used).
 * Behind a proxy, CHORUS_PUBLIC_URL says it instead.
 */
export function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const first = (name: string) => req.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const host = first('x-forwarded-host') ?? first('host');
  const proto = first('x-forwarded-proto') ?? url.protocol.slice(0, -1);
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host) || !['http', 'https'].includes(proto)) {
    return url.origin;
  }
  return `${proto}://${host}`;
}

/** The issuer: CHORUS_PUBLIC_URL's origin, else the origin the request came in on. */
export const issuerFor = (req: Request) => appOrigin(requestOrigin(req));

/**
 * RFC 6749 §5.2 errors. Anything else goes on to the pipeline's error stage, which answers it
 * in the same shape (oauth/door.ts) and logs it without secrets.
 */
function failure(error: unknown, req: Request, endpoint: string, headers: Headers) {
  if (!(error instanceof OAuthError)) throw error;
  if (error.error === 'invalid_client' && usesBasic(req)) {
    headers.set('WWW-Authenticate', 'Basic realm="chorus", error="invalid_client"');
  }
  if (error.retryAt) {
    const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
    headers.set('Retry-After', String(seconds));
  }
  log('info', 'oauth request refused', { endpoint, error: error.error });
  return json(error.status, error.toJSON(), noStore(headers));
}

/**
 * The authorization server's discovery document (RFC 8414). Synchronous and without a body to
 * read, so also callable on its own; through the pipeline it answers on the pipeline's headers.
 */
export function metadataAnswer(
  req: Request,
  headers = responseHeaders(requestIdFor(req)),
): Response {
  // It names the Host asked for: no shared cache may hand it to another.
  headers.set('Cache-Control', 'no-cache');
  headers.set('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(authorizationServerMetadata(issuerFor(req))), {
    status: 200,
    headers,
  });
}

/** A request's client, authenticated, with the parameters it sent. */
interface Authenticated {
  db: Database['db'];
  client: OAuthClientRow;
  params: Record<string, string | undefined>;
}

/**
 * One request's client authentication, run once however many stages ask for it: the
 * rate-limit stage (a confidential client counts on its own budget) and the endpoint, which
 * answers a failure.
 */
export interface ClientCheck {
  readonly result: Promise<Authenticated>;
}

/**
 * The authorization server's machine endpoints, as the pipeline's route handlers: token
 * (RFC 6749 §3.2), revocation (RFC 7009), introspection (RFC 7662) and metadata (RFC 8414).
 * The domain rules are in @chorus/services; this is their HTTP shape.
 */
export function oauthEndpoints({ getDatabase, trustedProxies }: OAuthEndpointsOptions) {
  /** Reads the parameters and authenticates the client (RFC 6749 §2.3), once per request. */
  function checkClient(req: Request, body: string | undefined): ClientCheck {
    const result = (async () => {
      const params = readParams(body ?? '', req.headers.get('content-type'));
      const credentials = clientCredentials(req, params);
      const { db } = await getDatabase();
      const ip = clientIp(req, { trusted: trustedProxies });
      return { db, params, client: await authenticateClient(db, credentials, ip) };
    })();
    return { result };
  }

  /** Runs `then` for the checked client; a failure answers in RFC 6749's shape. */
  async function withClient(
    endpoint: string,
    { req, headers }: OAuthCall,
    check: ClientCheck,
    then: (authenticated: Authenticated) => Promise<Answer>,
  ): Promise<Answer> {
    try {
      return await then(await check.result);
    } catch (error) {
      return failure(error, req, endpoint, headers);
    }
  }

  const token = (call: OAuthCall, check: ClientCheck) =>
    withClient('token', call, check, async ({ db, client, params }) =>
      json(200, await grantTokens({ db, client, params }), noStore(call.headers)),
    );

  const revoke = (call: OAuthCall, check: ClientCheck) =>
    withClient('revoke', call, check, async ({ db, client, params }) => {
      if (!params.token)
        throw new OAuthError('invalid_request', 'The token parameter is required.');
      await revokeToken({ db, client, token: params.token });
      return new Response(null, { status: 200, headers: noStore(call.headers) });
    });

  const introspect = (call: OAuthCall, check: ClientCheck) =>
    withClient('introspect', call, check, async ({ db, client, params }) => {
      // Public clients cannot authenticate, so they cannot introspect (RFC 7662 §2.1).
      if (!client.confidential) {
        throw new OAuthError('invalid_client', 'Introspection needs a confidential client.');
      }
      if (!params.token)
        throw new OAuthError('invalid_request', 'The token parameter is required.');
      const issuer = issuerFor(call.req);
      const answer = await introspectToken({ db, client, token: params.token, issuer });
      return json(200, answer, noStore(call.headers));
    });

  const metadata = async ({ req, headers }: OAuthCall) => metadataAnswer(req, headers);

  return { token, revoke, introspect, metadata, checkClient };
}
