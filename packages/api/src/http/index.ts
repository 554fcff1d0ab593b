export { createApiListener, guardServer, type ApiListenerOptions, type FetchHandler } from './listener';
