export { appRouter, type AppRouter } from './trpc/root';
export { createCallerFactory } from './trpc/init';
export { mayCall } from './trpc/may-call';
export type { Context } from './trpc/context';
export { toApiError, type ApiError } from './server/errors';
export { log } from './server/logger';
export { readCapped } from './server/body-limit';
export { assertIntegrationConfig } from './server/integrations-config';
export {
  anonymousBucket,
  callerBucket,
  clientIp,
  createRateLimiter,
  defaultRateLimiter,
  memoryStore,
  principalBucket,
  rateLimitConfigFromEnv,
  trustedProxiesFromEnv,
  type RateLimiter,
} from './rate-limit';
export { createTrpcHandler, maxBatchFromEnv, type TrpcHandlerOptions } from './server/trpc-door';
export { createServerCaller, type ServerCallerOptions } from './server/server-caller';
export { assertMediaConfig, maxUploadBytesFromEnv } from './media/config';
