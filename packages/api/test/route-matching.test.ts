/**
 * The REST table's matching: a path goes to its most specific template (a literal segment
 * over a parameter), and the method is looked for there; every route of the table is checked,
 * so a route added later cannot shadow another.
 */
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/table';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A parameter's value no literal segment of the table spells. */
const SAMPLE = 'sample-value-0';
const concrete = (template: string) => template.replace(/\{[^/}]+\}/g, SAMPLE);
const shape = (template: string) => template.replace(/\{[^/}]+\}/g, '{}');

describe('the REST route table', () => {
  it('answers every route at its own path, and 405 with exactly its methods otherwise', () => {
    for (const route of restRoutes.routes) {
      const path = concrete(route.path);
      const siblings = restRoutes.routes.filter((r) => shape(r.path) === shape(route.path));
      const methods = new Set(siblings.map((r) => r.method));
      // HEAD runs a GET for its headers, unless that GET has effects (a redirect route).
      if (siblings.some((r) => r.method === 'GET' && !r.meta.redirect)) methods.add('HEAD');
      const found = restRoutes.match(route.method, path);
      expect(found && 'route' in found && found.route, `${route.method} ${route.path}`).toBe(route);
      for (const method of METHODS.filter((m) => !methods.has(m))) {
        const refused = restRoutes.match(method, path);
        expect(refused, `${method} ${route.path}`).toEqual({
          allow: METHODS.filter((m) => m !== 'HEAD' && methods.has(m)).concat(
            methods.has('HEAD') ? ['HEAD'] : [],
          ),
        });
      }
    }
  });

  it('matches a literal segment before a parameter, whatever the method', () => {
    expect(restRoutes.match('GET', '/api/content/posts/validate')).toEqual({ allow: ['POST'] });
    expect(restRoutes.match('DELETE', '/api/content/posts/import')).toEqual({ allow: ['POST'] });
    expect(restRoutes.match('PUT', '/api/content/posts/export')).toEqual({
      allow: ['GET', 'HEAD'],
    });
    expect(restRoutes.match('POST', '/api/integrations/connected')).toEqual({
      allow: ['GET', 'HEAD'],
    });
    // A parameter still takes every other value.
    const post = restRoutes.match('GET', '/api/content/posts/post_1');
    expect(post && 'route' in post && post.route.path).toBe('/api/content/posts/{id}');
    expect(post && 'route' in post && post.params).toEqual({ id: 'post_1' });
  });

  it('percent-decodes a parameter after splitting the path, as a URL library reads it', () => {
    const user = restRoutes.match('GET', '/api/users/%75sr_1%5Fa');
    expect(user && 'route' in user && user.params).toEqual({ userId: 'usr_1_a' });
    // An encoded slash stays inside its segment: it is part of the value, not a separator.
    const post = restRoutes.match('GET', '/api/content/posts/a%2Fb');
    expect(post && 'route' in post && post.params).toEqual({ id: 'a/b' });
    // What no id holds (a control character, a broken escape) stays as sent: not found, 404.
    for (const raw of ['%00', '%0A', '%E0%A4%A']) {
      const kept = restRoutes.match('GET', `/api/users/${raw}`);
      expect(kept && 'route' in kept && kept.params).toEqual({ userId: raw });
    }
  });
});
