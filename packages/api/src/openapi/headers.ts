import type { OpenAPIObject } from 'trpc-to-openapi';

type Components = NonNullable<OpenAPIObject['components']>;

/** The headers every answer of the REST door carries, as references to the shared components. */
export const rateLimitHeaderRefs = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

export const headerRefs = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'API-Version': { $ref: '#/components/headers/API-Version' },
  ...rateLimitHeaderRefs,
};

/** The response headers the operations refer to (`#/components/headers/…`). */
export const sharedHeaders: NonNullable<Components['headers']> = {
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
};

/** The request headers the operations refer to (`#/components/parameters/…`). */
export const sharedParameters: NonNullable<Components['parameters']> = {
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
};
