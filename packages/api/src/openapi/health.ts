import { z } from 'zod';
import { rateLimitHeaderRefs } from './headers';

const HealthReport = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    checks: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'down']), latencyMs: z.number() }),
    ),
  })
  .meta({ id: 'HealthReport' });

/** The paths that answer without credentials: health and this document (the Operations tag). */
export const operationsPaths = {
  '/api/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Health of the service and what it stands on',
      tags: ['Operations'],
      description:
        "Never refused by rate limiting; its rate-limit headers show the caller's unauthenticated budget. `checks`: `database`; `redis` when rate limits are counted in Redis; `queue` (pg-boss's schema answers) and `worker` (a background worker ticked within the last 2 minutes). `degraded` (200) means a service the API can run without is down: Redis (rate limits are then not enforced), or the job queue or every worker (scheduled posts, publishing, webhook deliveries and analytics syncs wait). 503 only when the database is down.",
      security: [],
      responses: {
        200: {
          description: 'Serving (`ok` or `degraded`)',
          headers: rateLimitHeaderRefs,
          content: { 'application/json': { schema: HealthReport } },
        },
        503: {
          description: 'The database is down',
          headers: rateLimitHeaderRefs,
          content: { 'application/json': { schema: HealthReport } },
        },
      },
    },
  },
  '/api/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['Operations'],
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document', headers: rateLimitHeaderRefs },
        429: {
          description: '`rate_limit_exceeded`',
          headers: {
            ...rateLimitHeaderRefs,
            'Retry-After': { $ref: '#/components/headers/Retry-After' },
          },
        },
      },
    },
  },
};
