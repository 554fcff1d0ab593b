export {
  createApiListener,
  createHttpServer,
  refuseUpgrade,
  type ApiListenerOptions,
  type FetchHandler,
} from './listener';
