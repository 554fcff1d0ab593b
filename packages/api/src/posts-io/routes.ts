import type { HandlerRoute } from '../rest/routes';
import { handleExport } from './export';
import { handleImport } from './import';

/** Import and export (docs/settings-and-import-export.md): a CSV body in, a streamed body out, no procedure can. */
export const POSTS_IO_HANDLER_ROUTES: HandlerRoute[] = [
  {
    method: 'POST',
    path: '/api/content/posts/import',
    meta: {
      access: { scopes: ['content:write'] },
      successStatuses: {
        200: {
          description: 'Dry run: the issues and the posts as they would be',
          schema: 'ImportResponse',
        },
        201: { description: 'Imported', schema: 'ImportResponse' },
      },
      errors: ['invalid_json', 'payload_too_large', 'unsupported_media_type'],
    },
    acceptsSession: true,
    handle: (req, _params, context) => handleImport(req, context),
  },
  {
    method: 'GET',
    path: '/api/content/posts/export',
    meta: { access: { scopes: ['content:read'] } },
    acceptsSession: true,
    handle: (req, _params, context) => handleExport(req, context),
  },
];
