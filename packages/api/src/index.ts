export { appRouter, type AppRouter } from './root';
export { createCallerFactory } from './trpc';
export type { Context } from './context';
export { toApiError, type ApiError } from './errors';
export { log } from './logger';
export { readCapped } from './body-limit';
export { assertIntegrationConfig } from './integrations-config';
export {
  anonymousBucket,
  clientIp,
  createRateLimiter,
  defaultRateLimiter,
  memoryStore,
  principalBucket,
  rateLimitConfigFromEnv,
  trustedProxiesFromEnv,
  type RateLimiter,
} from './rate-limit';
export { createTrpcHandler, maxBatchFromEnv, type TrpcHandlerOptions } from './trpc-door';
export { assertMediaConfig, maxUploadBytesFromEnv } from './media/config';
