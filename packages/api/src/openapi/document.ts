import { ERROR_STATUS } from '@chorus/services';
import { SCOPE_DESCRIPTIONS, ZErrorEnvelope } from '@chorus/validators';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { restRoutes } from '../rest/table';
import { appRouter } from '../trpc/root';
import {
  describeRoute,
  withBodyExample,
  withResponseExamples,
  type Operation,
} from './describe-route';
import { sharedHeaders, sharedParameters } from './headers';
import { operationsPaths } from './health';
import { mediaExtraResponses, mediaPaths } from './media';
import { oauthClientScheme, oauthPaths } from './oauth';
import { postsIoPaths } from './posts-io';
import { eventSchemas, webhookOperations } from './webhooks';

/*
 * The OpenAPI document, assembled: the procedures' operations (trpc-to-openapi), each made to
 * say what the REST door does (describe-route.ts), the hand-written paths of each area
 * (health.ts, media.ts, posts-io.ts, oauth.ts), the shared headers (headers.ts) and the
 * webhooks (webhooks.ts).
 */

const DESCRIPTION = `The Chorus REST API, version 1 (every response carries \`API-Version: 1\`).

**Authentication.** Send \`Authorization: Bearer <token>\` with an API key (\`csk_live_…\` or \`csk_test_…\`) or an OAuth 2.0 access token. Each operation names the scopes it needs; admin-only operations also need the admin role.

**Errors** answer \`{ "success": false, "error": { "code", "message", "status", "details" } }\`. Validation errors list \`details.issues\` as \`{ path, message }\`.

**Bodies** are JSON (\`Content-Type: application/json\`, in UTF-8: another charset or another type, \`application/vnd.api+json\` included, is 415), at most 1 MiB; unknown fields are ignored. The same fields are accepted form-encoded (\`application/x-www-form-urlencoded\`: lists as repeated keys, \`settings[notifications]\` for nested fields, \`targets[0][channelId]\` for a list's items; a key that cannot be placed is 400) for clients that cannot send JSON; only JSON is described per operation.

**Request ids.** Every response carries \`X-Request-Id\` (yours, when you send a valid one).

**Rate limits.** Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds when the window ends) for the budget the request counted against: a sliding window of 60 seconds, per account for API keys, per account, user and client for OAuth tokens, with reads (GET, HEAD) and writes counted apart; unauthenticated requests count per client IP. Over the limit, the answer is 429 \`rate_limit_exceeded\` with \`Retry-After\` (seconds), and nothing was done.

**Idempotent retries.** Every POST accepts an \`Idempotency-Key\` header (1–255 characters, e.g. a UUID). The first answer for a key (status and body, successes and 4xx errors alike) is kept for 24 hours (sealed: it may hold a secret) and replayed, with \`Idempotent-Replayed: true\`, to a retry of the same request by the same credential; the work is done once. Keys are scoped per credential (an API key, an OAuth application for its user): another credential's same key is another key, and never gets this answer. Scopes and role are checked before a key is claimed or replayed. The same key with another request is 400 \`idempotency_key_reused\`; a retry while the first request still runs is 409 \`idempotency_in_progress\`. A 5xx answer is not kept: retrying with the same key runs the request again.`;

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
    paths: { ...operationsPaths, ...mediaPaths, ...postsIoPaths, ...oauthPaths },
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
    headers: sharedHeaders,
    parameters: { ...doc.components?.parameters, ...sharedParameters },
  };
  doc.components.schemas = {
    ...withoutGeneratorErrors(doc.components.schemas),
    ...eventSchemas(),
    Error: errorSchemaWithCodes(doc.components.schemas?.Error),
  };
  return { ...doc, tags: TAGS, webhooks: webhookOperations() } as OpenAPIObject;
}

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
