import type { RateLimiter } from '../rate-limit';
import type { ApiError } from '../server/errors';
import { toResponse } from '../server/node-fetch';
import { createPipeline, type PipelineRoute } from '../server/pipeline';
import { errorResponse, json } from '../server/respond';
import { metadataAnswer, noStore, oauthEndpoints, type OAuthEndpointsOptions } from './endpoints';
import { MAX_BODY } from './request';

export interface OAuthDoorOptions extends OAuthEndpointsOptions {
  /** Counts requests, per client address; by default the process's, shared with the API's doors. */
  rateLimiter?: RateLimiter;
}

type Endpoint = PipelineRoute['serve'];

/**
 * An OAuth endpoint as the pipeline's route: no bearer credential is read (the client
 * authenticates itself, or the document is public), counted per client address, its body
 * capped at MAX_BODY.
 */
export const oauthRoute = (serve: Endpoint, body: PipelineRoute['body'] = MAX_BODY) =>
  ({ caller: 'none', access: [], body, serve }) satisfies PipelineRoute;

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
  const alone = (serve: Endpoint) => {
    const door = createOAuthDoor(() => oauthRoute(serve), options);
    return async (req: Request) => toResponse(await door(req));
  };
  return {
    token: alone(endpoints.token),
    revoke: alone(endpoints.revoke),
    introspect: alone(endpoints.introspect),
    metadata: (req: Request) => metadataAnswer(req),
  };
}
