export {
  createApiListener,
  createHttpServer,
  type ApiListenerOptions,
  type FetchHandler,
} from './listener';
