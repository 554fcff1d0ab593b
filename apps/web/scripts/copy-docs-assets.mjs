// Copies Swagger UI from node_modules into public/, so /docs needs no CDN.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const source = dirname(require.resolve('swagger-ui-dist/package.json'));
const target = new URL('../public/docs-assets/', import.meta.url).pathname;

await mkdir(target, { recursive: true });
for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
  await copyFile(join(source, file), join(target, file));
}
await writeFile(
  join(target, 'init.js'),
  "window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true });\n",
);
