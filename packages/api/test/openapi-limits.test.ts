import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the OpenAPI document', () => {
  it('describes rate limits and idempotent POSTs, and stays valid', async () => {
    const { json: doc } = await h.call('GET', '/api/openapi.json', { token: null });
    await SwaggerParser.validate(structuredClone(doc));
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
      expect(doc.components.headers[name]).toBeDefined();
    }
    const create = doc.paths['/api/users'].post;
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
    expect(create.responses['201'].headers['X-RateLimit-Remaining']).toBeDefined();
    expect(create.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(create.responses['429'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(create.responses['409'].content['application/json'].examples)).toContain(
      'idempotency_in_progress',
    );
    expect(Object.keys(create.responses['400'].content['application/json'].examples)).toContain(
      'idempotency_key_reused',
    );
    const list = doc.paths['/api/users'].get;
    expect(list.parameters ?? []).not.toContainEqual({
      $ref: '#/components/parameters/Idempotency-Key',
    });
    expect(list.responses['429']).toBeDefined();
    expect(doc.components.parameters['Idempotency-Key']).toMatchObject({
      in: 'header',
      schema: { minLength: 1, maxLength: 255 },
    });
  });
});
