import type { Database } from '@chorus/db';
import {
  AppError,
  appOrigin,
  authenticateClient,
  authorizationServerMetadata,
  grantTokens,
  introspectToken,
  OAuthError,
  revokeToken,
} from '@chorus/services';
import { describeError, log } from '../server/logger';
import { apiSecurityHeaders } from '../server/security-headers';
import { clientIp, type TrustedProxies } from '../rate-limit/client-ip';
import { clientCredentials, readParams, type PresentedCredentials } from './request';

export interface OAuthEndpointsOptions {
  getDatabase: () => Promise<Database>;
  /** Who may name the client's address (default: CHORUS_TRUSTED_PROXIES). */
  trustedProxies?: TrustedProxies;
}

/** Token answers must not be cached anywhere (RFC 6749 §5.1). */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...apiSecurityHeaders(),
      ...NO_STORE,
      ...headers,
    },
  });

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

/** RFC 6749 §5.2 errors; an unexpected failure is `server_error`, logged without secrets. */
function failure(error: unknown, credentials: PresentedCredentials | undefined, endpoint: string) {
  if (error instanceof OAuthError) {
    const challenge: Record<string, string> =
      error.error === 'invalid_client' && credentials?.basic
        ? { 'WWW-Authenticate': 'Basic realm="chorus", error="invalid_client"' }
        : {};
    if (error.retryAt) {
      const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
      challenge['Retry-After'] = String(seconds);
    }
    log('info', 'oauth request refused', { endpoint, error: error.error });
    return json(error.status, error.toJSON(), challenge);
  }
  if (error instanceof AppError && error.code === 'payload_too_large') {
    return json(413, { error: 'invalid_request', error_description: error.message });
  }
  log('error', 'oauth request failed', { endpoint, error: describeError(error) });
  return json(500, { error: 'server_error', error_description: 'An unexpected error occurred.' });
}

/**
 * The authorization server's machine endpoints, as fetch handlers: token (RFC 6749 §3.2),
 * revocation (RFC 7009), introspection (RFC 7662) and metadata (RFC 8414). The domain rules
 * are in @chorus/services; this is their HTTP shape.
 */
export function createOAuthEndpoints({ getDatabase, trustedProxies }: OAuthEndpointsOptions) {
  /** Reads the request, authenticates the client, then runs `then`. */
  async function withClient(
    endpoint: string,
    req: Request,
    then: (
      db: Database['db'],
      client: Awaited<ReturnType<typeof authenticateClient>>,
      params: Record<string, string | undefined>,
    ) => Promise<Response>,
  ): Promise<Response> {
    let credentials: PresentedCredentials | undefined;
    try {
      const params = await readParams(req);
      credentials = clientCredentials(req, params);
      const { db } = await getDatabase();
      const ip = clientIp(req, { trusted: trustedProxies });
      const client = await authenticateClient(db, credentials, ip);
      return await then(db, client, params);
    } catch (error) {
      return failure(error, credentials, endpoint);
    }
  }

  const token = (req: Request) =>
    withClient('token', req, async (db, client, params) =>
      json(200, await grantTokens({ db, client, params })),
    );

  const revoke = (req: Request) =>
    withClient('revoke', req, async (db, client, params) => {
      if (!params.token)
        throw new OAuthError('invalid_request', 'The token parameter is required.');
      await revokeToken({ db, client, token: params.token });
      return new Response(null, { status: 200, headers: { ...apiSecurityHeaders(), ...NO_STORE } });
    });

  const introspect = (req: Request) =>
    withClient('introspect', req, async (db, client, params) => {
      // Public clients cannot authenticate, so they cannot introspect (RFC 7662 §2.1).
      if (!client.confidential) {
        throw new OAuthError('invalid_client', 'Introspection needs a confidential client.');
      }
      if (!params.token)
        throw new OAuthError('invalid_request', 'The token parameter is required.');
      return json(
        200,
        await introspectToken({ db, client, token: params.token, issuer: issuerFor(req) }),
      );
    });

  const metadata = (req: Request) =>
    new Response(JSON.stringify(authorizationServerMetadata(issuerFor(req))), {
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        ...apiSecurityHeaders(),
        // It names the Host asked for: no shared cache may hand it to another.
        'Cache-Control': 'no-cache',
        Vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto',
      },
    });

  return { token, revoke, introspect, metadata };
}
