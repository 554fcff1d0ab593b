import { ERROR_STATUS, type ErrorCode } from '@chorus/services';
import type { Route } from '../rest/routes';
import { restRoutes } from '../rest/table';
import { exampleOf } from './examples';
import { headerRefs } from './headers';

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

export type Operation = {
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
export function withBodyExample(operation: Operation, schemas: Record<string, unknown>) {
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
export function withResponseExamples(operation: Operation, schemas: Record<string, unknown>) {
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
export function describeRoute(operation: Operation, route: Route) {
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
