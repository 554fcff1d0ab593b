import type { HandlerRoute } from '../rest/routes';
import { handleContent, handleShared } from './content';
import { handleUpload } from './upload';

/** The media routes no procedure can serve: the multipart upload and the bytes. */
export const MEDIA_HANDLER_ROUTES: HandlerRoute[] = [
  {
    method: 'POST',
    path: '/api/content/media',
    meta: {
      access: { scopes: ['content:write'] },
      successStatus: 201,
      errors: ['payload_too_large', 'unsupported_media_type'],
    },
    acceptsSession: true,
    handle: (req, _params, context) => handleUpload(req, context),
  },
  {
    method: 'GET',
    path: '/api/content/media/{id}/content',
    meta: { access: { scopes: ['content:read'] }, errors: ['range_not_satisfiable'] },
    acceptsSession: true,
    handle: (req, params, context) => handleContent(req, params.get('id') ?? '', context),
  },
  {
    method: 'GET',
    path: '/api/content/media/{id}/shared',
    // The signature in the link authorises the request; no credential is read.
    meta: {
      openapi: { method: 'GET', path: '/api/content/media/{id}/shared', protect: false },
    },
    handle: (req, params, context) => handleShared(req, params.get('id') ?? '', context),
  },
];
