import { z } from 'zod';
import { singleLine } from './text';
import { inYearRange, YEAR_RANGE_MESSAGE, ZTimestamp } from './common';
import { ZScope } from './scopes';

export const ZApiKeyEnvironment = z.enum(['live', 'test']);

export const ZCreateApiKey = z.object({
  name: singleLine(z.string().trim().min(1).max(100)),
  scopes: z.array(ZScope).min(1),
  environment: ZApiKeyEnvironment.default('live'),
  /** When the key stops working; never, when left out. */
  expiresAt: ZTimestamp.refine(inYearRange, YEAR_RANGE_MESSAGE).optional(),
});

export const ZApiKey = z.object({
  id: z.string(),
  name: z.string(),
  environment: ZApiKeyEnvironment,
  prefix: z.string(),
  lastFour: z.string(),
  scopes: z.array(ZScope),
  expiresAt: ZTimestamp.nullable(),
  revokedAt: ZTimestamp.nullable(),
  lastUsedAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
});

/** A key in a list: whether it still works, and whose it is (an admin sees every key). */
export const ZApiKeyListItem = ZApiKey.extend({
  state: z.enum(['active', 'expired', 'revoked']),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});

export const ZApiKeyIdParam = z.object({ keyId: z.string() });

export type CreateApiKeyInput = z.infer<typeof ZCreateApiKey>;
export type ApiKey = z.infer<typeof ZApiKey>;
export type ApiKeyListItem = z.infer<typeof ZApiKeyListItem>;
