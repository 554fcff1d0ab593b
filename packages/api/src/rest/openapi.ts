import { ERROR_STATUS, type ErrorCode } from '@chorus/services';
import { ZErrorEnvelope } from '@chorus/validators';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { appRouter } from '../root';
import { routeTable, type Route } from './routes';

const DESCRIPTION = `The Chorus REST API, version 1 (every response carries \`API-Version: 1\`).

**Authentication.** Send \`Authorization: Bearer <token>\` with an API key (\`csk_live_…\` or \`csk_test_…\`) or an OAuth 2.0 access token. Each operation names the scopes it needs; admin-only operations also need the admin role.

**Errors** answer \`{ "success": false, "error": { "code", "message", "status", "details" } }\`. Validation errors list \`details.issues\` as \`{ path, message }\`.

**Bodies** are JSON or \`application/x-www-form-urlencoded\` (arrays as repeated keys), at most 1 MiB. Unknown fields are ignored.

**Request ids.** Every response carries \`X-Request-Id\` (yours, when you send a valid one).`;

const HealthReport = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    checks: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'down']), latencyMs: z.number() }),
    ),
  })
  .meta({ id: 'HealthReport' });

const publicPaths = {
  '/api/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Health of the service and what it stands on',
      tags: ['Operations'],
      security: [],
      responses: {
        200: { description: 'Serving', content: { 'application/json': { schema: HealthReport } } },
        503: {
          description: 'The database is down',
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
      responses: { 200: { description: 'The OpenAPI 3.1 document' } },
    },
  },
};

/** The errors a route can answer: those of its kind, then its own. */
function errorCodes(route: Route): ErrorCode[] {
  const codes: ErrorCode[] = route.meta.openapi?.protect === false ? [] : ['unauthorized'];
  if (route.meta.access) codes.push('insufficient_scope');
  if (route.meta.access?.role) codes.push('forbidden');
  codes.push('validation_error');
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    codes.push('invalid_json', 'payload_too_large', 'unsupported_media_type');
  }
  if (route.path.includes('{')) codes.push('resource_not_found');
  codes.push(...(route.meta.errors ?? []), 'internal_error', 'service_unavailable');
  return [...new Set(codes)];
}

const headerRefs = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'API-Version': { $ref: '#/components/headers/API-Version' },
};

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      String(status),
      {
        description: group.map((code) => `\`${code}\``).join(', '),
        headers: headerRefs,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            examples: Object.fromEntries(
              group.map((code) => [
                code,
                { value: { success: false, error: { code, message: '…', status } } },
              ]),
            ),
          },
        },
      },
    ]),
  );
}

type Operation = {
  description?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description: string; headers?: unknown; content?: unknown }>;
};

/** The success responses of a route, as the door answers them. */
function successResponses(
  route: Route,
  success: Operation['responses'][string] | undefined,
): Operation['responses'] {
  const { meta } = route;
  if (meta.redirect) {
    return {
      '302': {
        description: 'Redirect to the address in `Location`',
        headers: { ...headerRefs, Location: { schema: { type: 'string', format: 'uri' } } },
      },
    };
  }
  if (meta.successStatuses) {
    return Object.fromEntries(
      Object.entries(meta.successStatuses).map(([status, { description, schema }]) => [
        status,
        {
          description,
          headers: headerRefs,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
          },
        },
      ]),
    );
  }
  const status = meta.successStatus ?? 200;
  if (status === 204) return { '204': { description: 'No content', headers: headerRefs } };
  return {
    [status]: { ...success, description: status === 201 ? 'Created' : 'OK', headers: headerRefs },
  };
}

/** Makes an operation say what the door really does: statuses, envelope, headers, forms. */
function describeRoute(operation: Operation, route: Route) {
  operation.responses = successResponses(route, operation.responses['200']);
  Object.assign(operation.responses, errorResponses(errorCodes(route)));
  // Unprotected routes take no bearer token (an empty list overrides the document's default).
  if (route.meta.openapi?.protect === false) operation.security = [];
  const json = operation.requestBody?.content['application/json'];
  if (operation.requestBody && json) {
    operation.requestBody.content['application/x-www-form-urlencoded'] = json;
  }
  const access = route.meta.access;
  if (access) {
    const needs = `Requires scope ${access.scopes.map((s) => `\`${s}\``).join(' and ')}${access.role ? ` and the \`${access.role}\` role` : ''}.`;
    operation.description = operation.description ? `${operation.description}\n\n${needs}` : needs;
  }
}

let cached: OpenAPIObject | undefined;

function build(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Chorus API',
    version: '1',
    description: DESCRIPTION,
    baseUrl: '/',
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key (`csk_live_…`, `csk_test_…`) or an OAuth 2.0 access token.',
      },
    },
    paths: publicPaths,
    defs: { Error: ZErrorEnvelope },
  });
  for (const route of routeTable(appRouter).routes) {
    const operation = doc.paths?.[route.path]?.[route.method.toLowerCase() as 'get'] as
      Operation | undefined;
    if (operation) describeRoute(operation, route);
  }
  doc.components = {
    ...doc.components,
    headers: {
      'X-Request-Id': {
        description: 'Identifies the request in logs; echoes a valid incoming one.',
        schema: { type: 'string' },
      },
      'API-Version': {
        description: 'The API version that answered.',
        schema: { type: 'string', const: '1' },
      },
    },
  };
  return doc;
}

/** The OpenAPI 3.1 document, with the server the caller reached. */
export function openApiDocument(origin: string): OpenAPIObject {
  cached ??= build();
  return { ...cached, servers: [{ url: origin }] };
}
