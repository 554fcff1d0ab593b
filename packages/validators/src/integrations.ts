import { z } from 'zod';
import { isWebUrl, ZTimestamp } from './common';

export const INTEGRATION_CATEGORIES = ['social', 'design', 'storage'] as const;
export const ZIntegrationCategory = z.enum(INTEGRATION_CATEGORIES);
export type IntegrationCategory = z.infer<typeof ZIntegrationCategory>;

export const ZIntegrationStatus = z.enum(['active', 'coming_soon']);
export type IntegrationStatus = z.infer<typeof ZIntegrationStatus>;

export const ZAuthMethod = z.enum(['oauth2', 'api_key']);
export type AuthMethod = z.infer<typeof ZAuthMethod>;

const ZIntegrationId = z.string().meta({ example: 'facebook' });

export const ZIntegration = z
  .object({
    id: ZIntegrationId,
    name: z.string().meta({ example: 'Facebook' }),
    type: ZIntegrationCategory,
    description: z.string(),
    status: ZIntegrationStatus,
    icon: z.url().meta({ example: 'https://chorus.example.com/integrations/facebook.svg' }),
  })
  .meta({ id: 'Integration' });

export const ZIntegrationDetail = ZIntegration.extend({
  authMethod: ZAuthMethod,
  scopes: z.array(z.string()).meta({ description: 'Scopes requested from the third party.' }),
  endpoints: z.object({
    authorize: z.string().meta({
      description: 'Our path that starts a connection.',
      example: '/api/integrations/connect/facebook',
    }),
    callback: z.string().nullable().meta({
      description:
        'Our path the third party returns the browser to; null for API-key integrations.',
      example: '/api/integrations/callback/facebook',
    }),
  }),
  setupSteps: z.array(z.string()),
}).meta({ id: 'IntegrationDetail' });

export const ZIntegrationList = z
  .object({ data: z.array(ZIntegration) })
  .meta({ id: 'IntegrationList' });

export const ZListIntegrationsQuery = z.object({
  category: ZIntegrationCategory.meta({ description: 'Only this category.' }).optional(),
  status: ZIntegrationStatus.meta({ description: 'Only this status.' }).optional(),
});

export const ZIntegrationIdParam = z.object({ integrationId: z.string() });

/**
 * Where the browser returns after an OAuth flow: an absolute http(s) URL, written out in full
 * (scheme and `//`), without user credentials, which phishing links use to disguise a host.
 */
function isRedirectUrl(value: string): boolean {
  if (!isWebUrl(value)) return false;
  const url = new URL(value);
  return url.hostname !== '' && url.username === '' && url.password === '';
}

export const ZRedirectUrl = z
  .string()
  .max(2048)
  .refine(isRedirectUrl, 'Must be an absolute http(s) URL without a user name or password.')
  .meta({ example: 'https://app.example.com/settings/integrations' });

export const ZConnectIntegration = ZIntegrationIdParam.extend({
  redirectUrl: ZRedirectUrl.optional().meta({
    description:
      'OAuth flows: where the browser returns after the third party, with `status`, `provider` and, on failure, `error` in its query. Default: the dashboard’s integrations page on this service (`/dashboard/integrations`).',
  }),
  apiKey: z
    .string()
    .trim()
    .min(8)
    .max(512)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces.')
    .optional()
    .meta({
      description:
        'API-key integrations: the third-party key; stored encrypted. Bluesky: an app password; Mastodon: an access token of the account.',
    }),
  handle: z
    .string()
    .trim()
    .min(3)
    .max(253)
    .regex(/^@?[^\s@]+$/, 'Must be a handle such as alice.bsky.social, or a DID.')
    .optional()
    .meta({
      description: 'Bluesky: the handle (or DID) the app password belongs to.',
      example: 'alice.bsky.social',
    }),
  serviceUrl: z
    .string()
    .trim()
    .max(2048)
    .refine(isWebUrl, 'Must be an absolute http(s) URL.')
    .optional()
    .meta({
      description:
        "Bluesky: the account's PDS (default https://bsky.social); Mastodon: the instance (default https://mastodon.social). An address resolving to a private or loopback network is refused unless the deployment allows private targets.",
      example: 'https://mastodon.social',
    }),
});

export const ZConnectionMeta = z.object({
  accountName: z.string().meta({
    description:
      "The third-party account's name from its profile; otherwise the platform's name (with the key's last four characters for API-key platforms).",
    example: 'Acme Inc.',
  }),
  pages: z.array(z.string()).meta({ example: ['Acme News'] }),
});

export const ZConnectedIntegration = z
  .object({
    integrationId: ZIntegrationId,
    status: z.enum(['connected', 'needs_reconnect']).meta({
      description:
        '`needs_reconnect` once the platform refused the grant: a network at publishing (docs/publishing.md), or any OAuth platform its refresh token (docs/integrations.md). Publishing to its channels stops, and its access token is no longer renewed, until it is connected again.',
    }),
    connectedAt: ZTimestamp,
    lastSyncAt: ZTimestamp,
    meta: ZConnectionMeta,
  })
  .meta({ id: 'ConnectedIntegration' });

export const ZConnectedIntegrationList = z
  .object({ data: z.array(ZConnectedIntegration) })
  .meta({ id: 'ConnectedIntegrationList' });

export const ZConnectPending = z
  .object({
    status: z.literal('pending'),
    authUrl: z.url().meta({ description: 'Send the browser here; valid for 10 minutes.' }),
    provider: ZIntegrationId,
  })
  .meta({ id: 'ConnectResult' });

export const ZConnectResult = z.union([ZConnectPending, ZConnectedIntegration]);

export const ZDisconnectResult = z
  .object({ status: z.literal('disconnected'), provider: ZIntegrationId })
  .meta({ id: 'DisconnectResult' });

/** The longest authorization code and error code the callback uses (docs/integrations.md). */
export const OAUTH_CODE_MAX = 4096;
export const OAUTH_ERROR_MAX = 256;

/**
 * What the third party sends back to the callback (RFC 6749 §4.1.2, RFC 6749 §4.1.2.1). `code`
 * and `error` are read as every value given, unbounded: the state is checked before them, and
 * with a valid state a repeated or overlong one sends the browser back with
 * `error=invalid_request` (integrations/callback.ts), never a JSON refusal.
 */
export const ZOAuthCallbackQuery = ZIntegrationIdParam.extend({
  state: z
    .string()
    .max(512)
    .meta({ description: 'The state Chorus sent, returned by the platform.' })
    .optional(),
  code: z
    .array(z.string())
    .meta({
      description: `The authorization code, on success: once, at most ${OAUTH_CODE_MAX} characters (else the browser returns with \`error=invalid_request\`).`,
    })
    .optional(),
  error: z
    .array(z.string())
    .meta({
      description: `The platform’s error code, on refusal: once, at most ${OAUTH_ERROR_MAX} characters (else \`error=invalid_request\`).`,
    })
    .optional(),
});

export const ZRedirect = z.object({ location: z.string() });

export type Integration = z.infer<typeof ZIntegration>;
export type IntegrationDetail = z.infer<typeof ZIntegrationDetail>;
export type ConnectedIntegration = z.infer<typeof ZConnectedIntegration>;
export type ConnectionMeta = z.infer<typeof ZConnectionMeta>;
export type ConnectPending = z.infer<typeof ZConnectPending>;
export type DisconnectResult = z.infer<typeof ZDisconnectResult>;
