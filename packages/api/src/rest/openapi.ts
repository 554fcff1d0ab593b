import { ERROR_STATUS, type ErrorCode } from '@chorus/services';
import {
  EVENT_TYPES,
  SCOPE_DESCRIPTIONS,
  ZErrorEnvelope,
  type EventType,
} from '@chorus/validators';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];
import { z } from 'zod';
import { mediaExtraResponses, mediaPaths } from '../media/openapi';
import { oauthClientScheme, oauthPaths } from '../oauth/openapi';
import { exampleOf } from './openapi-examples';
import { postsIoPaths } from '../posts-io/openapi';
import { appRouter } from '../root';
import type { Route } from './routes';
import { restRoutes } from './table';

const DESCRIPTION = `The Chorus REST API, version 1 (every response carries \`API-Version: 1\`).

**Authentication.** Send \`Authorization: Bearer <token>\` with an API key (\`csk_live_…\` or \`csk_test_…\`) or an OAuth 2.0 access token. Each operation names the scopes it needs; admin-only operations also need the admin role.

**Errors** answer \`{ "success": false, "error": { "code", "message", "status", "details" } }\`. Validation errors list \`details.issues\` as \`{ path, message }\`.

**Bodies** are JSON (\`Content-Type: application/json\`), at most 1 MiB; unknown fields are ignored. The same fields are accepted form-encoded (\`application/x-www-form-urlencoded\`: arrays as repeated keys, \`settings[notifications]\` for nested fields) for clients that cannot send JSON; only JSON is described per operation.

**Request ids.** Every response carries \`X-Request-Id\` (yours, when you send a valid one).

**Rate limits.** Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds when the window ends) for the budget the request counted against: a sliding window of 60 seconds, per account for API keys, per account, user and client for OAuth tokens, with reads (GET, HEAD) and writes counted apart; unauthenticated requests count per client IP. Over the limit, the answer is 429 \`rate_limit_exceeded\` with \`Retry-After\` (seconds), and nothing was done.

**Idempotent retries.** Every POST accepts an \`Idempotency-Key\` header (1–255 characters, e.g. a UUID). The first answer for a key (status and body, successes and 4xx errors alike) is kept for 24 hours (sealed: it may hold a secret) and replayed, with \`Idempotent-Replayed: true\`, to a retry of the same request by the same credential; the work is done once. Keys are scoped per credential (an API key, an OAuth application for its user): another credential's same key is another key, and never gets this answer. Scopes and role are checked before a key is claimed or replayed. The same key with another request is 400 \`idempotency_key_reused\`; a retry while the first request still runs is 409 \`idempotency_in_progress\`. A 5xx answer is not kept: retrying with the same key runs the request again.`;

const HealthReport = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    checks: z.record(
      z.string(),
      z.object({ status: z.enum(['up', 'down']), latencyMs: z.number() }),
    ),
  })
  .meta({ id: 'HealthReport' });

const rateLimitHeaderRefs = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const headerRefs = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'API-Version': { $ref: '#/components/headers/API-Version' },
  ...rateLimitHeaderRefs,
};

const publicPaths = {
  '/api/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Health of the service and what it stands on',
      tags: ['Operations'],
      description:
        "Never refused by rate limiting; its rate-limit headers show the caller's unauthenticated budget. `degraded` (200) means a service the API can run without is down, e.g. Redis: rate limits are then not enforced.",
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

/** The errors a route can answer: those of its kind, then its own. */
function errorCodes(route: Route): ErrorCode[] {
  const codes: ErrorCode[] = route.meta.openapi?.protect === false ? [] : ['unauthorized'];
  if (route.meta.access) codes.push('insufficient_scope');
  if (route.meta.access?.role) codes.push('forbidden');
  codes.push('validation_error');
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    // Handler routes read their own bodies (multipart): no JSON to be invalid.
    if (!route.handler) codes.push('invalid_json');
    codes.push('payload_too_large', 'unsupported_media_type');
  }
  if (route.method === 'POST') codes.push('idempotency_key_reused', 'idempotency_in_progress');
  codes.push('rate_limit_exceeded');
  if (route.path.includes('{')) codes.push('resource_not_found');
  codes.push(...(route.meta.errors ?? []), 'internal_error', 'service_unavailable');
  return [...new Set(codes)];
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      String(status),
      {
        description: group.map((code) => `\`${code}\``).join(', '),
        headers:
          status === 429
            ? { ...headerRefs, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
            : headerRefs,
        content: {
          'application/json': {
            // The envelope, its `error.code` narrowed to the codes this status can carry here.
            schema: {
              allOf: [
                { $ref: '#/components/schemas/Error' },
                {
                  type: 'object',
                  properties: {
                    // Open here: the envelope's own schema closes it.
                    error: {
                      type: 'object',
                      properties: { code: { type: 'string', enum: group } },
                      additionalProperties: true,
                    },
                  },
                  additionalProperties: true,
                },
              ],
            },
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
  parameters?: unknown[];
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

/**
 * The door's HTTP semantics on an operation: `Location` on a 201 that created a resource with
 * its own GET, and `ETag` / `If-None-Match` → 304 on a JSON read (see rest/representation.ts).
 */
function describeRepresentation(operation: Operation, route: Route) {
  const created = operation.responses['201'];
  const readable = restRoutes.match('GET', `${route.path}/x`);
  if (created && readable && 'route' in readable) {
    created.headers = {
      ...(created.headers as object),
      Location: { $ref: '#/components/headers/Location' },
    };
  }
  const read = operation.responses['200'];
  // Handler routes (media bytes, exports) answer their own way.
  if (route.method !== 'GET' || route.handler || !read) return;
  read.headers = { ...(read.headers as object), ETag: { $ref: '#/components/headers/ETag' } };
  // A list (it takes a cursor) links its next page.
  const isList = (operation.parameters ?? []).some(
    (p) => (p as { name?: unknown }).name === 'startingAfter',
  );
  if (isList) {
    read.headers = { ...(read.headers as object), Link: { $ref: '#/components/headers/Link' } };
  }
  operation.responses['304'] = {
    description: 'Not modified: `If-None-Match` names the current `ETag`; no body.',
    headers: { ...headerRefs, ETag: { $ref: '#/components/headers/ETag' } },
  };
  operation.parameters = [
    ...(operation.parameters ?? []),
    { $ref: '#/components/parameters/If-None-Match' },
  ];
}

/** A JSON request body without an example gets one built from its schema. */
function withBodyExample(operation: Operation, schemas: Record<string, unknown>) {
  const body = operation.requestBody?.content['application/json'] as
    { schema?: unknown; example?: unknown; examples?: unknown } | undefined;
  if (!body || body.example !== undefined || body.examples !== undefined) return;
  const example = exampleOf(body.schema, schemas);
  if (example !== undefined) body.example = example;
}

/**
 * A JSON success answer without an example gets one built from its schema, so that every
 * operation shows what it answers (the error answers have theirs per code).
 */
function withResponseExamples(operation: Operation, schemas: Record<string, unknown>) {
  for (const [status, answer] of Object.entries(operation.responses)) {
    if (!status.startsWith('2')) continue;
    const content = (answer.content as Record<string, unknown> | undefined)?.[
      'application/json'
    ] as { schema?: unknown; example?: unknown; examples?: unknown } | undefined;
    if (!content || content.example !== undefined || content.examples !== undefined) continue;
    const example = exampleOf(content.schema, schemas);
    if (example !== undefined) content.example = example;
  }
}

/** Makes an operation say what the door really does: statuses, envelope, headers, forms. */
function describeRoute(operation: Operation, route: Route) {
  const access = route.meta.access;
  operation.responses = successResponses(route, operation.responses['200']);
  Object.assign(operation.responses, errorResponses(errorCodes(route)));
  if (route.method === 'POST') {
    operation.parameters = [
      ...(operation.parameters ?? []),
      { $ref: '#/components/parameters/Idempotency-Key' },
    ];
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      answer.headers = {
        ...headerRefs,
        'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
      };
    }
  }
  describeRepresentation(operation, route);
  // Unprotected routes take no bearer token (an empty list overrides the document's default).
  if (route.meta.openapi?.protect === false) operation.security = [];
  // Either an API key or an OAuth access token carrying the operation's scopes.
  else if (access) operation.security = [{ bearerAuth: [] }, { oauth2: access.scopes }];
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
      // Completed with absolute URLs and the scopes by `oauth2Scheme`.
      oauth2: { type: 'oauth2', flows: {} },
      oauthClient: oauthClientScheme,
    },
    paths: { ...publicPaths, ...mediaPaths, ...postsIoPaths, ...oauthPaths },
    defs: { Error: ZErrorEnvelope },
  });
  for (const route of restRoutes.routes) {
    const operation = doc.paths?.[route.path]?.[route.method.toLowerCase() as 'get'] as
      Operation | undefined;
    if (!operation) continue;
    describeRoute(operation, route);
    withBodyExample(operation, doc.components?.schemas ?? {});
    Object.assign(operation.responses, mediaExtraResponses[`${route.method} ${route.path}`]);
  }
  // Every operation, those written by hand (health, OAuth, media bytes) included.
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      if (typeof operation === 'object' && operation && 'responses' in operation) {
        withResponseExamples(operation as Operation, doc.components?.schemas ?? {});
      }
    }
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
      'X-RateLimit-Limit': {
        description:
          'Requests allowed per 60-second sliding window in the budget this request counted against.',
        schema: { type: 'integer' },
      },
      'X-RateLimit-Remaining': {
        description: 'Requests left in that budget.',
        schema: { type: 'integer' },
      },
      'X-RateLimit-Reset': {
        description: 'Unix epoch seconds at which the current window ends.',
        schema: { type: 'integer' },
      },
      'Retry-After': {
        description: 'Seconds to wait before retrying.',
        schema: { type: 'integer' },
      },
      Location: {
        description: 'Where the created resource is read (`GET`), relative to the server.',
        schema: { type: 'string' },
      },
      Link: {
        description:
          'RFC 8288: `<…>; rel="next"`, this request\'s URL (relative) with the next page\'s position; absent on the last page.',
        schema: { type: 'string' },
        example:
          '</api/content/posts?limit=25&startingAfter=post_01JD2Y8Q9Z3M4N5P6R7S8T9V0W>; rel="next"',
      },
      ETag: {
        description:
          'A weak validator of the JSON answer: send it back in `If-None-Match` to get 304 while it has not changed.',
        schema: { type: 'string' },
      },
      'Idempotent-Replayed': {
        description:
          '`true` when this is the kept answer to an earlier request with the same `Idempotency-Key`.',
        schema: { type: 'string', const: 'true' },
      },
    },
    parameters: {
      ...doc.components?.parameters,
      'If-None-Match': {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An `ETag` of an earlier answer: 304 with no body when it is still current.',
        schema: { type: 'string' },
      },
      'Idempotency-Key': {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes retries safe: the first answer for a key is kept for 24 hours and replayed to retries of the same request.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
  };
  doc.components.schemas = {
    ...withoutGeneratorErrors(doc.components.schemas),
    ...eventSchemas(),
    Error: errorSchemaWithCodes(doc.components.schemas?.Error),
  };
  return { ...doc, tags: TAGS, webhooks: webhookOperations() } as OpenAPIObject;
}

/** The resource each event type carries in `data.object` (docs/webhooks.md). */
const EVENT_OBJECTS: Record<EventType, string> = {
  'user.created': 'User',
  'user.updated': 'User',
  'user.deleted': 'User',
  'post.created': 'Post',
  'post.updated': 'Post',
  'post.submitted': 'Post',
  'post.approved': 'Post',
  'post.rejected': 'Post',
  'post.scheduled': 'Post',
  'post.publishing': 'Post',
  'post.published': 'Post',
  'post.failed': 'Post',
  'post.deleted': 'Post',
  'media.uploaded': 'Media',
  'media.deleted': 'Media',
  'integration.connected': 'ConnectedIntegration',
  'integration.disconnected': 'ConnectedIntegration',
  'integration.needs_reconnect': 'ConnectedIntegration',
  'webhook.test': 'Webhook',
};

/** `post.published` → `PostPublishedEvent`. */
const eventSchemaId = (type: string) =>
  `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;

/** One payload schema per event type, so a client can generate a type for each. */
function eventSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      eventSchemaId(type),
      {
        type: 'object' as const,
        description: `The \`${type}\` event, as delivered to webhooks.`,
        required: ['id', 'type', 'timestamp', 'data'],
        properties: {
          id: {
            type: 'string' as const,
            description: 'The event id (`evt_…`), also sent as `webhook-id`.',
          },
          type: { type: 'string' as const, const: type },
          timestamp: { type: 'string' as const, format: 'date-time' },
          data: {
            type: 'object' as const,
            required: ['object'],
            properties: {
              object: {
                $ref: `#/components/schemas/${EVENT_OBJECTS[type]}`,
                description: 'The resource as the REST API returns it.',
              },
            },
          },
        },
      },
    ]),
  );
}

const SIGNING = `Signed per Standard Webhooks: \`webhook-signature\` is \`v1,\` + base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\` with the secret's key (the base64 after \`whsec_\`); for 24 hours after a rotation it carries two signatures, space-separated. Answer 2xx within 10 s; anything else is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 disables the endpoint. Deliveries are at least once: dedupe on \`webhook-id\`.`;

const signatureHeaders = [
  ['webhook-id', 'The event id: the same on every attempt.'],
  ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'],
  ['webhook-signature', 'One or more `v1,<base64>` signatures, space-separated.'],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

/**
 * trpc-to-openapi adds its own `error.*` schemas (tRPC's error shape); every response here
 * answers the spec's `Error` envelope instead, so they describe nothing and would only mislead.
 */
function withoutGeneratorErrors<T>(schemas: Record<string, T> = {}) {
  return Object.fromEntries(Object.entries(schemas).filter(([id]) => !id.startsWith('error.')));
}

/** The envelope's `error.code` as the enum of every code the API answers. */
function errorSchemaWithCodes(schema: unknown) {
  const envelope = structuredClone(schema) as {
    properties: { error: { properties: { code: Record<string, unknown> } } };
  };
  envelope.properties.error.properties.code.enum = Object.keys(ERROR_STATUS);
  return envelope;
}

/** The sections of the reference, in order, each with what it is about. */
const TAGS = [
  { name: 'Users', description: 'The people of the account: roles, profiles, passwords.' },
  { name: 'Account', description: "The account's own settings." },
  {
    name: 'Posts',
    description:
      'Content: drafts, scheduling, publishing to channels, approval, import and export.',
  },
  {
    name: 'Channels',
    description: 'The profiles and pages of connected networks that a post can target.',
  },
  { name: 'Media', description: 'Images, videos and documents attached to posts.' },
  { name: 'Analytics', description: 'Tracked events and the statistics built from them.' },
  {
    name: 'Integrations',
    description: 'Connections to social networks and other services, by OAuth or API key.',
  },
  {
    name: 'Webhooks',
    description: 'Endpoints Chorus notifies of events, signed; their deliveries and retries.',
  },
  {
    name: 'OAuth',
    description:
      'The authorization server for third-party applications: tokens, revocation, introspection and its metadata.',
  },
  { name: 'Operations', description: 'Health and this document.' },
];

/** The OpenAPI 3.1 `webhooks` section: what Chorus POSTs to a subscribed endpoint. */
function webhookOperations() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `on${eventSchemaId(type)}`,
          summary: `\`${type}\``,
          description: SIGNING,
          tags: ['Webhooks'],
          parameters: signatureHeaders,
          // The receiver checks the signature headers above, not a credential of its own API.
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${eventSchemaId(type)}` },
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx).' },
            '410': { description: 'Gone: the endpoint is disabled at once.' },
          },
        },
      },
    ]),
  );
}

/** OAuth 2.0 authorization code flow (with PKCE) of our authorization server (docs/oauth.md). */
const oauth2Scheme = (origin: string) => ({
  type: 'oauth2' as const,
  description:
    'OAuth 2.0 authorization code flow with PKCE (S256; required for public clients). Access tokens (`cso_at_…`) last 3600 s; refresh tokens (`cso_rt_…`) rotate. Metadata: `/.well-known/oauth-authorization-server`.',
  flows: {
    authorizationCode: {
      authorizationUrl: `${origin}/oauth/authorize`,
      tokenUrl: `${origin}/oauth/token`,
      refreshUrl: `${origin}/oauth/token`,
      scopes: SCOPE_DESCRIPTIONS,
    },
  },
});

/** The OpenAPI 3.1 document, with the server the caller reached. */
export function openApiDocument(origin: string): OpenAPIObject {
  cached ??= build();
  const components = cached.components ?? {};
  return {
    ...cached,
    servers: [{ url: origin }],
    components: {
      ...components,
      securitySchemes: { ...components.securitySchemes, oauth2: oauth2Scheme(origin) },
    },
  };
}
