export {
  createApiListener,
  createHttpServer,
  refuseUpgrade,
  type ApiListenerOptions,
  type FetchHandler,
} from './listener';
export { corsOriginsFromEnv, type CorsOrigins } from './cors';
export { refuse } from './refuse';
export { apiError, type ApiError } from './errors';
export { apiMounts, type ApiRoutesOptions } from './api-routes';
