import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, assertIntegrationConfig, createCallerFactory } from '../src';
import { openApiDocument } from '../src/openapi/document';
import { startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h?.close());

afterEach(() => {
  delete process.env.CHORUS_PUBLIC_URL;
});

const DETAIL_ONLY = ['authMethod', 'scopes', 'endpoints', 'setupSteps'];

describe('GET /api/integrations', () => {
  it('lists the catalogue: 10+ entries across social, design and storage', async () => {
    const { status, json } = await h.call('GET', '/api/integrations');
    expect(status).toBe(200);
    expect(Object.keys(json)).toEqual(['data']);
    const entries = json.data as Record<string, string>[];
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['social', 'design', 'storage']));
    expect(entries.some((e) => e.status === 'coming_soon')).toBe(true);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(
        ['description', 'icon', 'id', 'name', 'status', 'type'].sort(),
      );
      expect(entry.icon).toBe(`http://localhost:3000/integrations/${entry.id}.svg`);
    }
  });

  it('serves an icon for every entry from the web app', async () => {
    const { json } = await h.call('GET', '/api/integrations');
    for (const { id } of json.data as { id: string }[]) {
      const file = fileURLToPath(
        new URL(`../../../apps/web/public/integrations/${id}.svg`, import.meta.url),
      );
      expect(existsSync(file), file).toBe(true);
    }
  });

  it('gives icons on the origin the request came in on, or on CHORUS_PUBLIC_URL', async () => {
    const viaHost = await h.call('GET', '/api/integrations', { origin: 'https://api.acme.test' });
    expect(viaHost.json.data[0].icon).toMatch(/^https:\/\/api\.acme\.test\/integrations\//);
    process.env.CHORUS_PUBLIC_URL = 'https://chorus.example.com/';
    const configured = await h.call('GET', '/api/integrations', { origin: 'http://internal:3000' });
    expect(configured.json.data[0].icon).toMatch(/^https:\/\/chorus\.example\.com\/integrations\//);
  });

  it('filters by category and status', async () => {
    const design = await h.call('GET', '/api/integrations?category=design');
    expect(design.json.data.length).toBeGreaterThan(0);
    expect(design.json.data.every((e: { type: string }) => e.type === 'design')).toBe(true);
    const soon = await h.call('GET', '/api/integrations?status=coming_soon&category=social');
    expect(soon.json.data.length).toBeGreaterThan(0);
    for (const entry of soon.json.data)
      expect(entry).toMatchObject({ status: 'coming_soon', type: 'social' });
  });

  it('refuses unknown filter values: 400 validation_error', async () => {
    for (const query of ['category=foo', 'status=beta', 'category=']) {
      const { status, json } = await h.call('GET', `/api/integrations?${query}`);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('validation_error');
    }
  });
});

describe('GET /api/integrations/{integrationId}', () => {
  it('answers the bare entry with its detail-only fields', async () => {
    const { status, json } = await h.call('GET', '/api/integrations/facebook');
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: 'facebook',
      type: 'social',
      status: 'active',
      authMethod: 'oauth2',
      scopes: expect.arrayContaining(['pages_manage_posts']),
      endpoints: {
        authorize: '/api/integrations/connect/facebook',
        callback: '/api/integrations/callback/facebook',
      },
    });
    expect(json.setupSteps.length).toBeGreaterThan(0);
  });

  it('has both auth methods in the catalogue', async () => {
    const { json } = await h.call('GET', '/api/integrations');
    const details = await Promise.all(
      json.data.map((e: { id: string }) => h.call('GET', `/api/integrations/${e.id}`)),
    );
    const methods = details.map((d) => d.json.authMethod);
    expect(methods).toContain('api_key');
    expect(methods).toContain('oauth2');
    for (const d of details)
      expect(Object.keys(d.json)).toEqual(expect.arrayContaining(DETAIL_ONLY));
    const apiKey = details.find((d) => d.json.authMethod === 'api_key')?.json;
    expect(apiKey.scopes).toEqual([]);
    expect(apiKey.endpoints.callback).toBeNull();
  });

  it('is 404 resource_not_found for unknown or malformed ids', async () => {
    for (const id of ['myspace', 'FACEBOOK', '%E2%98%83', 'a.b']) {
      const { status, json } = await h.call('GET', `/api/integrations/${id}`);
      expect(status, id).toBe(404);
      expect(json.error.code).toBe('resource_not_found');
    }
  });
});

describe('authentication', () => {
  it('answers 401 without credentials on every endpoint but the callback', async () => {
    const protectedRoutes: [string, string][] = [
      ['GET', '/api/integrations'],
      ['GET', '/api/integrations/facebook'],
      ['GET', '/api/integrations/connected'],
      ['POST', '/api/integrations/connect/facebook'],
      ['DELETE', '/api/integrations/disconnect/facebook'],
      ['GET', '/api/integrations/nope/nothing'],
    ];
    for (const [method, path] of protectedRoutes) {
      const body = method === 'POST' ? { redirectUrl: 'https://app.example.com/' } : undefined;
      const { status, headers } = await h.call(method, path, { token: null, body });
      expect(status, `${method} ${path}`).toBe(401);
      expect(headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const callback = await h.call('GET', '/api/integrations/callback/facebook', { token: null });
    expect(callback.status).toBe(400);
    expect(callback.json.error.code).toBe('invalid_state');
  });

  it('needs the read scope to read', async () => {
    const { secret } = await h.keyFor(h.main.adminId, ['write']);
    const { status, json } = await h.call('GET', '/api/integrations', { token: secret });
    expect(status).toBe(403);
    expect(json.error.details.requiredScopes).toEqual(['read']);
  });
});

describe('through createCaller', () => {
  it('uses the origin of the context for icons', async () => {
    const principal = h.session({ scopes: ['read'] });
    const caller = createCallerFactory(appRouter)({
      db: h.db,
      principal,
      requestId: 'req_test',
      origin: 'https://dash.acme.test',
      response: {},
    });
    const detail = await caller.integrations.get({ integrationId: 'canva' });
    expect(detail.icon).toBe('https://dash.acme.test/integrations/canva.svg');
    expect(await caller.integrations.connected({})).toEqual({ data: [] });
  });
});

describe('OpenAPI document', () => {
  it('documents the callback as public and redirecting, connect with 200 and 201', () => {
    const paths = openApiDocument('http://localhost:3000').paths ?? {};
    const callback = paths['/api/integrations/callback/{integrationId}']?.get;
    expect(callback?.security).toEqual([]);
    expect(Object.keys(callback?.responses ?? {})).toContain('302');
    expect(Object.keys(callback?.responses ?? {})).not.toContain('401');
    const connect = paths['/api/integrations/connect/{integrationId}']?.post;
    expect(Object.keys(connect?.responses ?? {})).toEqual(expect.arrayContaining(['200', '201']));
  });
});

describe('assertIntegrationConfig', () => {
  it('stops production without an encryption key, and names the setting', () => {
    expect(() => assertIntegrationConfig({ NODE_ENV: 'production' })).toThrow(
      /CHORUS_ENCRYPTION_KEY is not set/,
    );
    expect(() =>
      assertIntegrationConfig({ NODE_ENV: 'production', CHORUS_ENCRYPTION_KEY: 'a'.repeat(64) }),
    ).not.toThrow();
  });

  it('refuses malformed keys and provider URLs anywhere', () => {
    expect(() => assertIntegrationConfig({ CHORUS_ENCRYPTION_KEY: 'short' })).toThrow(
      /CHORUS_ENCRYPTION_KEY must be 32 bytes/,
    );
    expect(() =>
      assertIntegrationConfig({ CHORUS_INTEGRATION_GOOGLE_DRIVE_TOKEN_URL: 'not a url' }),
    ).toThrow(/CHORUS_INTEGRATION_GOOGLE_DRIVE_TOKEN_URL/);
  });
});
