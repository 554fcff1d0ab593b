import { z } from 'zod';

/** ISO 8601 UTC with milliseconds and `Z` (decisions §4). */
export const ZTimestamp = z.iso.datetime().meta({ example: '2026-11-21T10:00:00.000Z' });

/** page/limit query parameters: out-of-range values are refused, never clamped (§5). */
export const paginationQuery = (defaultLimit: number) =>
  z.object({
    page: z.number().int().min(1).default(1).meta({ description: 'Page number, 1-based.' }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(defaultLimit)
      .meta({ description: `Results per page, 1 to 100 (default ${defaultLimit}).` }),
  });

export const ZErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ example: 'resource_not_found' }),
      message: z.string().meta({ example: 'User not found.' }),
      status: z.number().int().meta({ example: 404 }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error', description: 'Every error answers in this envelope.' });
