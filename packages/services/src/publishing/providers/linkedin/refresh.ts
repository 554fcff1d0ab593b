import { z } from 'zod';
import { NetworkError } from '../../http';
import type { ProviderContext, ProviderCredentials } from '../../provider';
import { requestJson } from '../common/json';
import { ProviderError } from '../common/provider-error';

/**
 * LinkedIn's programmatic refresh (https://learn.microsoft.com/linkedin/shared/authentication/
 * programmatic-refresh-tokens): `grant_type=refresh_token` at the token endpoint gives a new
 * access token for 60 days. Refresh tokens are given to approved apps only and last a year;
 * when there is none, or LinkedIn refuses it, the member must connect again.
 */

const ZTokens = z.object({
  access_token: z.string(),
  expires_in: z.number(),
  refresh_token: z.string().optional(),
});

const revoked = (message: string) => new ProviderError({ class: 'revoked', message });

export async function refreshLinkedIn(
  credentials: ProviderCredentials,
  context: ProviderContext,
): Promise<ProviderCredentials> {
  if (!credentials.refreshToken)
    throw revoked('LinkedIn gave no refresh token: connect LinkedIn again.');
  if (!context.oauth)
    throw revoked('LinkedIn is not configured for this deployment: connect LinkedIn again.');
  const { tokenUrl, clientId, clientSecret } = context.oauth;
  let data: unknown;
  try {
    ({ data } = await requestJson(tokenUrl, {
      method: 'POST',
      signal: context.signal,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: credentials.refreshToken,
        client_id: clientId,
        client_secret: clientSecret,
      }).toString(),
    }));
  } catch (error) {
    // A 4xx from the token endpoint is final ("invalid, expired or revoked"); 5xx is retried.
    const status = error instanceof NetworkError ? error.details.status : undefined;
    if (status === undefined || status >= 500) throw error;
    const body = (error as NetworkError).details.body as
      { error_description?: unknown } | undefined;
    throw revoked(
      typeof body?.error_description === 'string'
        ? body.error_description
        : 'LinkedIn refused the refresh token.',
    );
  }
  const tokens = ZTokens.parse(data);
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? credentials.refreshToken,
    expiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    ...(credentials.extra ? { extra: credentials.extra } : {}),
  };
}
