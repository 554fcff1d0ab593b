import { createHash } from 'node:crypto';
import { openApiDocument } from '@chorus/api/openapi';
import { renderReference } from '~/server/api-reference/render';
import type { JsonObject } from '~/server/api-reference/schema';
import { STYLE } from '~/server/api-reference/style';

// Rendered on the first request and kept: the document is fixed for the life of the process.
export const dynamic = 'force-dynamic';

/**
 * Nothing runs on the page and only its own style sheet applies (by hash): the document's
 * text is escaped, and even if something slipped through, the browser would run none of it.
 */
const POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

let page: string | undefined;

/**
 * The API reference, made from the same document `/api/openapi.json` serves. Its OAuth URLs
 * are written as paths (`/oauth/token`) so one rendering serves every host name.
 */
export function GET() {
  page ??= renderReference(openApiDocument('') as unknown as JsonObject, '/api/openapi.json');
  return new Response(page, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': POLICY,
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
