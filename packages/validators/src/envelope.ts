import { z, type ZodType } from 'zod';

/** The general envelope's pagination (docs/api.md). */
export const ZPagination = z
  .object({
    total: z.number().int().meta({ description: 'Items across every page.' }),
    count: z.number().int().meta({ description: 'Items on this page.' }),
    perPage: z.number().int(),
    currentPage: z.number().int(),
    totalPages: z.number().int(),
    nextCursor: z.string().nullable().meta({
      description:
        '`startingAfter` for the next page (the id of the last item of this one), or null when no item follows.',
      example: null,
    }),
  })
  .meta({ id: 'Pagination' });

export type Pagination = z.infer<typeof ZPagination>;

/** `{ success: true, data }`: a single resource of a table-B endpoint (docs/api.md). */
export const ZEnvelope = <T extends ZodType>(data: T, id: string) =>
  z.object({ success: z.literal(true), data }).meta({ id });

/** `{ success: true, data: [...], meta: { pagination } }`: a table-B list (docs/api.md). */
export const ZListEnvelope = <T extends ZodType>(item: T, id: string) =>
  z
    .object({
      success: z.literal(true),
      data: z.array(item),
      meta: z.object({ pagination: ZPagination }),
    })
    .meta({ id });
