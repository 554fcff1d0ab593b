import { MAX_IMPORT_ROWS } from '@chorus/services';
import { ZCreatePost, ZExportPostsQuery, ZImportResponse } from '@chorus/validators';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EXPORT_COLUMNS } from '../posts-io/export';
import { IMPORT_COLUMNS, MAX_IMPORT_BYTES } from '../posts-io/import';

const CSV_EXAMPLE = `title,content,tags,scheduledAt,channels
Launch day,We are live!,"launch,news",2026-12-01T09:00:00Z,
Behind the scenes,How we built it,blog,,
`;

const DRY_RUN_EXAMPLE = {
  success: true,
  data: {
    dryRun: true,
    valid: false,
    count: 1,
    rows: [
      {
        row: 1,
        title: 'Launch day',
        status: 'scheduled',
        scheduledAt: '2026-12-01T09:00:00.000Z',
        tags: ['launch', 'news'],
      },
    ],
    ids: [],
    issues: [
      {
        row: 2,
        line: 3,
        path: 'scheduledAt',
        message: 'Must be an ISO 8601 date and time, such as 2026-12-01T09:30:00Z.',
      },
    ],
  },
};

/** The OpenAPI operations of import and export, which no procedure describes. */
export const postsIoPaths: ZodOpenApiPathsObject = {
  '/api/content/posts/import': {
    post: {
      operationId: 'importPosts',
      summary: 'Import posts',
      tags: ['Posts'],
      description: `Up to ${MAX_IMPORT_ROWS} posts, created all together or not at all, each checked by the same rules as \`POST /api/content/posts\`. A post is a \`draft\`, or \`scheduled\` when it has a \`scheduledAt\` (in the future, with a zone).

**CSV** (\`text/csv\`, UTF-8, a header row): the columns read are ${IMPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}; others are ignored (an export's \`id\`, \`status\`…), so a draft or a future scheduled post of a CSV export imports back with its channels, without its media. UTF-8 only (another charset is 415). \`tags\` and \`channels\` hold comma-separated lists. A cell that starts with \`'\` followed by \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return loses that \`'\` (an export's protection against formulas).

**JSON**: \`{ "posts": [ ...create bodies ] }\`, or a JSON export as it is (an array of posts: a post's fields a create does not take, such as \`id\` or a target's \`status\`, are ignored; a \`status\` other than \`draft\` or \`scheduled\` is refused).

Any row with an issue refuses the whole import: 400 \`validation_error\` whose \`details.issues\` name each \`row\` (from 1), the CSV \`line\` where it ends, the field (\`path\`) and the \`message\`. With \`?dryRun=true\` the answer is 200 with the same issues and the posts as they would be, and nothing is written. Bodies up to ${MAX_IMPORT_BYTES} bytes; more than ${MAX_IMPORT_ROWS} posts is 400.`,
      parameters: [
        {
          name: 'dryRun',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
          description: '`true`: answer the issues and the posts as they would be, writing nothing.',
        },
      ],
      requestBody: {
        required: true,
        content: {
          'text/csv': { schema: { type: 'string' }, example: CSV_EXAMPLE },
          'application/json': {
            schema: z.union([
              z.object({ posts: z.array(ZCreatePost).min(1).max(MAX_IMPORT_ROWS) }),
              z.array(ZCreatePost).min(1).max(MAX_IMPORT_ROWS),
            ]),
            example: {
              posts: [
                {
                  title: 'Launch day',
                  content: 'We are live!',
                  tags: ['launch'],
                  scheduledAt: '2026-12-01T09:00:00Z',
                },
                { title: 'Behind the scenes' },
              ],
            },
          },
        },
      },
      responses: {
        200: {
          description: 'Dry run',
          content: { 'application/json': { schema: ZImportResponse, example: DRY_RUN_EXAMPLE } },
        },
      },
    },
  },
  '/api/content/posts/export': {
    get: {
      operationId: 'exportPosts',
      summary: 'Export posts',
      tags: ['Posts'],
      description: `Every post of the account matching the list's filters, newest first, streamed (never the whole list in memory). \`format=json\` (default): a JSON array of posts as \`GET /api/content/posts/{id}\` returns them. \`format=csv\`: a header row, then one post a row, columns ${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}; lists joined by commas (\`channels\`: the targets' channel ids). Either format imports back (\`POST /api/content/posts/import\`). A cell that would start with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return is prefixed with \`'\` so that a spreadsheet shows it as text, never runs it as a formula (OWASP CSV injection); an import takes it off again.`,
      requestParams: { query: ZExportPostsQuery },
      responses: {
        200: {
          description: 'The posts, as a download',
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: '#/components/schemas/Post' } },
            },
            'text/csv': {
              schema: { type: 'string' },
              example: `${EXPORT_COLUMNS.join(',')}\nLaunch day,We are live!,"launch,news",2026-12-01T09:00:00.000Z,"chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W,chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0X",post_01JD2Y8Q9Z3M4N5P6R7S8T9V0W,scheduled,,,usr_01JD2Y8Q9Z3M4N5P6R7S8T9V0A,2026-11-21T10:00:00.000Z,2026-11-21T10:00:00.000Z\n`,
            },
          },
        },
      },
    },
  },
};
