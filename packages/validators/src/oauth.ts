import { z } from 'zod';
import { singleLine } from './text';
import { ZTimestamp } from './common';
import { ZScope } from './scopes';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI an admin may register: absolute, https (http only to loopback, for
 * development and native apps, RFC 8252 §7.3), no fragment (RFC 6749 §3.1.2) and no user
 * name or password. It is then matched exactly, character for character.
 */
function isRegistrableRedirectUri(value: string): boolean {
  if (!URL.canParse(value) || value.includes('#')) return false;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '' || url.hostname === '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

export const ZRedirectUri = z
  .string()
  .trim()
  .max(2048)
  .refine(
    isRegistrableRedirectUri,
    'Must be an absolute https URL (http only on localhost), without a fragment or credentials.',
  );

export const ZCreateOAuthClient = z.object({
  name: singleLine(z.string().trim().min(1).max(100)),
  redirectUris: z.array(ZRedirectUri).min(1).max(10),
  scopes: z.array(ZScope).min(1),
  confidential: z.boolean(),
});

export const ZOAuthClient = z.object({
  id: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  scopes: z.array(ZScope),
  confidential: z.boolean(),
  /** The last four characters of the secret (confidential clients), to tell secrets apart. */
  secretLastFour: z.string().nullable(),
  createdAt: ZTimestamp,
});

export const ZOAuthClientIdParam = z.object({ clientId: z.string() });

export type CreateOAuthClientInput = z.infer<typeof ZCreateOAuthClient>;
export type OAuthClient = z.infer<typeof ZOAuthClient>;

/** An OAuth application as the user who authorized it sees it (dashboard, authorized apps). */
export const ZAuthorizedApp = z.object({
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(ZScope),
  firstAuthorizedAt: ZTimestamp,
  lastAuthorizedAt: ZTimestamp,
});
export type AuthorizedApp = z.infer<typeof ZAuthorizedApp>;
