/**
 * Every success answer and every request body of the served OpenAPI document shows an example
 * (what generators, mock servers and the reference page show first), and each JSON example is
 * valid against its own schema. Bytes (media, PDF, an upload's parts) have none: no example
 * text stands for them.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

type Content = Record<string, { schema?: unknown; example?: unknown; examples?: unknown }>;
type Operation = {
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content }>;
};

let h: Harness;
let doc: { paths: Record<string, Record<string, Operation>>; components: unknown };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  h = await startHarness();
  const { status, json } = await h.call('GET', '/api/openapi.json', { token: null });
  expect(status).toBe(200);
  doc = json;
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
});
afterAll(() => h.close());

/** Bytes, or an upload's parts around a file's bytes. */
const isBytes = (type: string) =>
  /^(image|video|audio)\/|^application\/(pdf|octet-stream)$|^multipart\//.test(type);

/** Each documented body, request or success answer, as `[where, media type, content]`. */
function documented() {
  const found: [string, string, Content[string]][] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) {
        found.push([`${where} request`, type, content]);
      }
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const [type, content] of Object.entries(answer.content ?? {})) {
          found.push([`${where} ${status}`, type, content]);
        }
      }
    }
  }
  return found.filter(([, type]) => !isBytes(type));
}

describe('examples in the OpenAPI document', () => {
  it('are on every success answer and request body', () => {
    const all = documented();
    expect(all.length).toBeGreaterThan(60);
    const missing = all
      .filter(([, , content]) => content.example === undefined && content.examples === undefined)
      .map(([where, type]) => `${where} ${type}`);
    expect(missing).toEqual([]);
  });

  it('are valid against their schemas', () => {
    const invalid: string[] = [];
    for (const [where, type, content] of documented()) {
      if (!type.includes('json') || content.schema === undefined) continue;
      const examples =
        content.example !== undefined
          ? [content.example]
          : Object.values(content.examples as Record<string, { value: unknown }>).map(
              (e) => e.value,
            );
      const schema = JSON.parse(
        JSON.stringify(content.schema).replaceAll('"#/components/', '"doc#/components/'),
      );
      const validate = ajv.compile(schema);
      for (const example of examples) {
        if (!validate(example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(invalid).toEqual([]);
  });
});
