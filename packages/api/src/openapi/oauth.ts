/**
 * The authorization server's machine endpoints in the OpenAPI document. Their bodies are
 * form-encoded, as OAuth 2.0 requires (RFC 6749, section 3.2), and their errors are OAuth's
 * `{ error, error_description }`, not the API's envelope: OAuth client libraries read them.
 */
import { SCOPES } from '@chorus/validators';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

const FORM = 'application/x-www-form-urlencoded';
const NO_STORE_NOTE = 'Answers carry `Cache-Control: no-store`.';

const clientFields = {
  client_id: {
    type: 'string' as const,
    description: 'The application (a public client, or a confidential one not using Basic).',
  },
  client_secret: {
    type: 'string' as const,
    description: 'A confidential client that does not use HTTP Basic (`client_secret_post`).',
  },
};

const oauthError = (codes: string[]) => ({
  description: codes.map((code) => `\`${code}\``).join(', '),
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'string', enum: codes },
          error_description: { type: 'string' },
        },
      },
      example: { error: codes[0], error_description: 'The authorization code is not valid.' },
    },
  },
});

const errors = {
  400: oauthError([
    'invalid_request',
    'invalid_grant',
    'unauthorized_client',
    'unsupported_grant_type',
    'invalid_scope',
  ]),
  401: oauthError(['invalid_client']),
  429: {
    ...oauthError(['invalid_client']),
    description: 'Too many failed client authentications: see `Retry-After`.',
  },
  500: oauthError(['server_error']),
};

// Basic (client_secret_basic), the secret in the body, or none for a public client with PKCE.
const clientSecurity: Record<string, string[]>[] = [{ oauthClient: [] }, {}];

export const oauthPaths: ZodOpenApiPathsObject = {
  '/oauth/token': {
    post: {
      operationId: 'oauthToken',
      summary: 'Exchange an authorization code, or a refresh token, for tokens',
      tags: ['OAuth'],
      description: `RFC 6749 (sections 4.1.3 and 6). \`authorization_code\` needs the \`code_verifier\` of the PKCE challenge (S256) and the same \`redirect_uri\`; \`refresh_token\` rotates the refresh token (presenting a used one again revokes the whole grant). Authenticate a confidential client with HTTP Basic or \`client_secret\`; a public client sends only \`client_id\`. ${NO_STORE_NOTE}`,
      security: clientSecurity,
      requestBody: {
        required: true,
        content: {
          [FORM]: {
            schema: {
              type: 'object',
              required: ['grant_type'],
              properties: {
                grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
                code: { type: 'string', description: 'For `authorization_code`.' },
                redirect_uri: {
                  type: 'string',
                  format: 'uri',
                  description: 'For `authorization_code`.',
                },
                code_verifier: { type: 'string', description: 'For `authorization_code` (PKCE).' },
                refresh_token: { type: 'string', description: 'For `refresh_token`.' },
                scope: {
                  type: 'string',
                  description:
                    'For `refresh_token`: a narrower set of the granted scopes, space-separated.',
                },
                ...clientFields,
              },
            },
            example: {
              grant_type: 'authorization_code',
              code: 'cso_ac_…',
              redirect_uri: 'https://app.example.com/callback',
              code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
              client_id: 'oac_01JD2Y8Q9Z3M4N5P6R7S8T9V0A',
            },
          },
        },
      },
      responses: {
        200: {
          description: 'The tokens',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
                properties: {
                  access_token: { type: 'string' },
                  token_type: { type: 'string', const: 'Bearer' },
                  expires_in: { type: 'integer', description: 'Seconds.' },
                  refresh_token: { type: 'string' },
                  scope: { type: 'string', description: 'The granted scopes, space-separated.' },
                },
              },
              example: {
                access_token: 'cso_at_…',
                token_type: 'Bearer',
                expires_in: 3600,
                refresh_token: 'cso_rt_…',
                scope: 'read content:read',
              },
            },
          },
        },
        ...errors,
      },
    },
  },
  '/oauth/revoke': {
    post: {
      operationId: 'oauthRevoke',
      summary: 'Revoke an access or refresh token',
      tags: ['OAuth'],
      description:
        "RFC 7009. Ends the whole grant the token belongs to. An unknown or already revoked token, or another client's, answers 200 as well (the client cannot learn anything from it).",
      security: clientSecurity,
      requestBody: {
        required: true,
        content: {
          [FORM]: {
            schema: {
              type: 'object',
              required: ['token'],
              properties: {
                token: { type: 'string' },
                token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
                ...clientFields,
              },
            },
            example: {
              token: 'cso_rt_…',
              token_type_hint: 'refresh_token',
              client_id: 'oac_01JD2Y8Q9Z3M4N5P6R7S8T9V0A',
            },
          },
        },
      },
      responses: { 200: { description: 'Revoked (or nothing to revoke); no body.' }, ...errors },
    },
  },
  '/oauth/introspect': {
    post: {
      operationId: 'oauthIntrospect',
      summary: 'Whether a token is active, and what it grants',
      tags: ['OAuth'],
      description:
        'RFC 7662, for confidential clients only, about their own tokens: any other token is `{ "active": false }` and nothing more.',
      security: [{ oauthClient: [] }],
      requestBody: {
        required: true,
        content: {
          [FORM]: {
            schema: {
              type: 'object',
              required: ['token'],
              properties: { token: { type: 'string' }, ...clientFields },
            },
            example: { token: 'cso_at_…' },
          },
        },
      },
      responses: {
        200: {
          description: "The token's state",
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['active'],
                properties: {
                  active: { type: 'boolean' },
                  scope: { type: 'string' },
                  client_id: { type: 'string' },
                  username: { type: 'string' },
                  sub: { type: 'string' },
                  token_type: { type: 'string', const: 'Bearer' },
                  exp: { type: 'integer' },
                  iat: { type: 'integer' },
                  iss: { type: 'string' },
                },
              },
              example: { active: false },
            },
          },
        },
        ...errors,
      },
    },
  },
  '/.well-known/oauth-authorization-server': {
    get: {
      operationId: 'oauthMetadata',
      summary: "The authorization server's metadata",
      tags: ['OAuth'],
      description:
        'RFC 8414: the endpoints (authorize, token, revocation, introspection), the scopes, and what is supported (the authorization code flow with PKCE S256, refresh tokens).',
      security: [],
      responses: {
        200: {
          description: 'The metadata',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['issuer', 'authorization_endpoint', 'token_endpoint'],
                properties: {
                  issuer: { type: 'string', format: 'uri' },
                  authorization_endpoint: { type: 'string', format: 'uri' },
                  token_endpoint: { type: 'string', format: 'uri' },
                  revocation_endpoint: { type: 'string', format: 'uri' },
                  introspection_endpoint: { type: 'string', format: 'uri' },
                  scopes_supported: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
                  response_types_supported: { type: 'array', items: { type: 'string' } },
                  grant_types_supported: { type: 'array', items: { type: 'string' } },
                  code_challenge_methods_supported: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
        405: { description: 'A method other than GET or HEAD; no body.' },
      },
    },
  },
};

/** HTTP Basic with the application's id and secret (`client_secret_basic`). */
export const oauthClientScheme = {
  type: 'http' as const,
  scheme: 'basic',
  description: "An OAuth application's client id and secret (confidential clients).",
};
