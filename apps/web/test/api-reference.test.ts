/**
 * The API reference page (`/docs`) made from the OpenAPI document: every operation of the real
 * document is on it, and the document's text cannot put markup or a script on the page.
 */
import { openApiDocument } from '@chorus/api/openapi';
import { describe, expect, it } from 'vitest';
import { escapeHtml, markdown } from '../src/server/api-reference/markdown';
import { operations, renderReference } from '../src/server/api-reference/render';
import { rows, type JsonObject } from '../src/server/api-reference/schema';

const real = openApiDocument('') as unknown as JsonObject;

describe('the API reference', () => {
  it('has a section for every operation and webhook event of the document', () => {
    const html = renderReference(real, '/api/openapi.json');
    const ops = operations(real);
    const paths = Object.values(real.paths as JsonObject).flatMap((item) =>
      Object.keys(item as JsonObject),
    );
    expect(ops.filter((op) => !op.webhook)).toHaveLength(paths.length);
    expect(ops.filter((op) => op.webhook)).toHaveLength(
      Object.keys(real.webhooks as JsonObject).length,
    );
    for (const op of ops) {
      expect(html).toContain(`<section class="op" id="${op.anchor}"`);
      expect(html).toContain(`<a href="#${op.anchor}">`);
    }
    expect(new Set(ops.map((op) => op.anchor)).size).toBe(ops.length);
    expect(html).toContain('<a href="/api/openapi.json">');
  });

  it('folds each operation’s field tables, saying how many fields, and keeps the schemas open', () => {
    const html = renderReference(real, '/api/openapi.json');
    const ops = html.slice(0, html.indexOf('<section id="schemas"'));
    const schemas = html.slice(html.indexOf('<section id="schemas"'));
    const folds = [
      ...ops.matchAll(/<details class="fields"><summary>([^<]*)<\/summary>(.*?)<\/details>/g),
    ];
    expect(folds.length).toBeGreaterThan(40);
    for (const [, summary = '', table = ''] of folds) {
      const rowsIn = table.split('<tr><th scope="row">').length - 1;
      expect(summary).toMatch(new RegExp(`: ${rowsIn} fields?$`));
    }
    // Every field table of an operation is in one.
    expect(ops.replace(/<details class="fields">.*?<\/details>/g, '')).not.toContain(
      'Field and type',
    );
    expect(schemas).not.toContain('<details');
    expect(schemas).toContain('Field and type');
  });

  it('escapes whatever the document says, and links only to the web and this site', () => {
    const hostile: JsonObject = {
      openapi: '3.1.0',
      info: {
        title: '<script>alert(1)</script>',
        version: '"1',
        description: '[x](javascript:alert(1)) [ok](/docs) `<b>`',
      },
      tags: [{ name: 'T"><img src=x onerror=alert(1)>', description: '**<i>bold</i>**' }],
      paths: {
        '/a/<b>': {
          get: {
            operationId: 'x" onmouseover="alert(1)',
            tags: ['T"><img src=x onerror=alert(1)>'],
            summary: '<svg onload=alert(1)>',
            parameters: [
              { name: '<p>', in: 'query', schema: { type: 'string', example: '</code><script>' } },
            ],
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { '<k>': { type: 'string' } } },
                    example: { a: '</pre><script>x</script>' },
                  },
                },
              },
            },
          },
        },
      },
    };
    const html = renderReference(hostile, '/api/openapi.json?"x');
    // Only the page's own markup: none of the document's tags, no link to a script.
    expect(html).not.toMatch(/<(script|img|svg|i|b|k)[\s>]/);
    expect(html).not.toMatch(/href="javascript/i);
    expect(html).not.toMatch(/ on\w+="/);
    expect(html).toContain('<a href="/docs">ok</a>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; reference');
    expect(html).toContain('id="op-x-onmouseover-alert-1"');
  });

  it('reads descriptions as a little Markdown, escaped first', () => {
    expect(markdown('A `<code>` and **bold**.\n\n- one\n- two')).toBe(
      '<p>A <code>&lt;code&gt;</code> and <strong>bold</strong>.</p><ul><li>one</li><li>two</li></ul>',
    );
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('lists nested fields under their path, a tree without looping', () => {
    const doc: JsonObject = {
      components: {
        schemas: {
          Node: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', maxLength: 10 },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              parent: { anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] },
            },
          },
        },
      },
    };
    const found = rows(doc, { $ref: '#/components/schemas/Node' });
    expect(found.map((row) => [row.path, row.type, row.required])).toEqual([
      ['id', 'string', true],
      ['children', 'array of Node', false],
      ['parent', 'Node or null', false],
    ]);
    expect(found[0]?.notes).toEqual(['at most 10 characters']);
  });
});
