export const dynamic = 'force-static';

/**
 * The API reference: Swagger UI, served from this app (public/docs-assets is copied from
 * swagger-ui-dist at build time), reading the live /api/openapi.json.
 */
const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Chorus API reference</title>
  <link rel="stylesheet" href="/docs-assets/swagger-ui.css" />
  <style>body { margin: 0 } .swagger-ui .topbar { display: none }</style>
</head>
<body>
  <div id="docs"></div>
  <script src="/docs-assets/swagger-ui-bundle.js"></script>
  <script src="/docs-assets/init.js"></script>
</body>
</html>`;

/** Swagger UI's scripts and styles are served from here; it fetches the document from here. */
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function GET() {
  return new Response(page, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': POLICY,
      'X-Frame-Options': 'DENY',
    },
  });
}
