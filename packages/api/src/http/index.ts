export {
  createApiListener,
  createHttpServer,
  refuseUpgrade,
  type ApiListenerOptions,
  type FetchHandler,
} from './listener';
export { refuse } from './refuse';
export { apiError, type ApiError } from '../errors';
