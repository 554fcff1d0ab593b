import { oauthClientBucket, type RateLimiter } from '../rate-limit';
import type { ApiError } from '../server/errors';
import { toResponse, type Answer } from '../server/node-fetch';
import { createPipeline, type Admitted, type PipelineRoute } from '../server/pipeline';
import { errorResponse, json } from '../server/respond';
import {
  metadataAnswer,
  noStore,
  oauthEndpoints,
  type ClientCheck,
  type OAuthEndpointsOptions,
} from './endpoints';
import { MAX_BODY } from './request';

export interface OAuthDoorOptions extends OAuthEndpointsOptions {
  /** Counts requests, per client address; by default the process's, shared with the API's doors. */
  rateLimiter?: RateLimiter;
}

type Endpoint = PipelineRoute['serve'];
/** An endpoint whose client authenticates itself: token, revocation, introspection. */
type ClientEndpoint = (call: Admitted, check: ClientCheck) => Promise<Answer>;

/** The metadata as the pipeline's route: public, no body, counted per client address. */
export const publicRoute = (serve: Endpoint) =>
  ({ caller: 'none', access: [], body: 'none', serve }) satisfies PipelineRoute;

/**
 * A client endpoint as one request's route (made per request): no bearer credential is read,
 * the body is capped at MAX_BODY, and the client is authenticated once, for the rate-limit
 * stage and for the endpoint. A confidential client that proves itself counts on its own
 * budget; a public client, or credentials that fail, on the client address's.
 */
export function clientRoute(
  endpoint: ClientEndpoint,
  checkClient: (req: Request, body: string | undefined) => ClientCheck,
): PipelineRoute {
  let check: ClientCheck | undefined;
  const once = (req: Request, body: string | undefined) => (check ??= checkClient(req, body));
  return {
    caller: 'none',
    access: [],
    body: MAX_BODY,
    async bucket(req, body, limits) {
      const { client } = await once(req, body).result.catch(() => ({ client: null }));
      return client?.confidential ? oauthClientBucket(client.id, limits) : null;
    },
    serve: (call) => endpoint(call, once(call.req, call.body)),
  };
}

/**
 * A refusal in RFC 6749's shape (`error`, `error_description`), uncached — except for a
 * request no endpoint serves (a path below one, another method), answered in the API's
 * envelope like any other unknown route.
 */
function oauthRefusal(failure: ApiError, headers: Headers) {
  if (failure.code === 'route_not_found' || failure.code === 'method_not_allowed') {
    return errorResponse(failure, headers);
  }
  const error =
    failure.status === 503
      ? 'temporarily_unavailable'
      : failure.status >= 500
        ? 'server_error'
        : 'invalid_request';
  return json(failure.status, { error, error_description: failure.message }, noStore(headers));
}

/** The OAuth door: the pipeline (server/pipeline.ts) with RFC 6749's error shape. */
export function createOAuthDoor(
  route: (req: Request, path: string) => PipelineRoute,
  options: OAuthDoorOptions,
) {
  return createPipeline(
    { route: (req, _url, path) => route(req, path), refusal: oauthRefusal },
    { getDatabase: options.getDatabase, rateLimiter: options.rateLimiter },
  );
}

/**
 * The endpoints one by one, as fetch handlers through the pipeline whatever their path (tests,
 * fetch runtimes); the metadata, which reads nothing, also as a plain function.
 */
export function createOAuthEndpoints(options: OAuthDoorOptions) {
  const endpoints = oauthEndpoints(options);
  const alone = (endpoint: ClientEndpoint) => {
    const door = createOAuthDoor(() => clientRoute(endpoint, endpoints.checkClient), options);
    return async (req: Request) => toResponse(await door(req));
  };
  return {
    token: alone(endpoints.token),
    revoke: alone(endpoints.revoke),
    introspect: alone(endpoints.introspect),
    metadata: (req: Request) => metadataAnswer(req),
  };
}
