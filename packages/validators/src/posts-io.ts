import { z } from 'zod';
import { ZEnvelope } from './envelope';
import { ZListPostsQuery } from './posts';

/** `GET /api/content/posts/export`'s query: the list's filters and a format (docs/settings-and-import-export.md). */
export const ZExportPostsQuery = ZListPostsQuery.omit({
  page: true,
  limit: true,
  sort: true,
}).extend({
  format: z
    .enum(['csv', 'json'])
    .default('json')
    .meta({ description: '`json` (the default): a JSON array of posts. `csv`: one post a row.' }),
});
export type ExportPostsQuery = z.infer<typeof ZExportPostsQuery>;

/** `?dryRun=true|false` of an import; anything else is refused, not read as false. */
export const ZImportQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({
      description: '`true`: answer the issues and the posts as they would be, writing nothing.',
    }),
});

const ZImportIssue = z
  .object({
    row: z
      .number()
      .int()
      .meta({ description: "The post's position in the import, from 1.", example: 3 }),
    line: z.number().int().optional().meta({
      description: 'CSV only: the line where the record starts (the header is line 1).',
      example: 4,
    }),
    path: z.string().meta({ example: 'scheduledAt' }),
    message: z
      .string()
      .meta({ example: 'Must be an ISO 8601 date and time, such as 2026-12-01T09:30:00Z.' }),
  })
  .meta({ id: 'ImportIssue' });

export const ZImportResult = z
  .object({
    dryRun: z.boolean(),
    valid: z.boolean().meta({ description: 'Every row is valid (a dry run that would import).' }),
    count: z.number().int().meta({ description: 'Rows that passed the schema.' }),
    rows: z.array(
      z.object({
        row: z.number().int(),
        title: z.string(),
        status: z.enum(['draft', 'scheduled']),
        scheduledAt: z.string().nullable(),
        tags: z.array(z.string()),
      }),
    ),
    ids: z
      .array(z.string())
      .meta({ description: 'The created posts, in order; empty for a dry run.' }),
    issues: z.array(ZImportIssue),
  })
  .meta({ id: 'ImportResult' });

export const ZImportResponse = ZEnvelope(ZImportResult, 'ImportResponse');
export type ImportResultBody = z.infer<typeof ZImportResult>;
