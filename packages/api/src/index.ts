export { appRouter, type AppRouter } from './root';
export { createCallerFactory } from './trpc';
export type { Context } from './context';
export { toApiError, type ApiError } from './errors';
export { log } from './logger';
export { readCapped } from './body-limit';
export { assertIntegrationConfig } from './integrations-config';
export { clientIp, rateLimitConfigFromEnv, trustedProxiesFromEnv } from './rate-limit';
