import type { AuthorizationRequest } from '@chorus/services';
import { describe, expect, it } from 'vitest';
import { consentPage } from '../src/server/oauth-pages';

const request = (name: string) =>
  ({
    client: { name },
    redirectUri: 'https://partner.example/callback',
    redirectUriGiven: true,
    scopes: ['read'],
    state: undefined,
    codeChallenge: undefined,
  }) as unknown as AuthorizationRequest;

describe('the consent page', () => {
  it('isolates the application’s name, so its right-to-left overrides reorder nothing around it', async () => {
    // U+202E reverses what follows it up to the end of its paragraph, unless isolated.
    const name = 'Mail \u202Eliam kcots\u202C';
    const page = consentPage({
      request: request(name),
      params: new URLSearchParams(),
      csrfToken: 'token',
      userEmail: 'ana@example.test',
    });
    const html = await page.text();
    expect(html).toContain(`<h1>Authorize <bdi>${name}</bdi></h1>`);
    expect(html).toContain(
      `<p><strong><bdi>${name}</bdi></strong> asks to act on your behalf with these permissions:</p>`,
    );
    // Outside the isolates, the page holds no override of its own.
    const outside = html.replaceAll(/<bdi>[^<]*<\/bdi>/g, '').replace(/<title>[^<]*<\/title>/, '');
    expect(outside).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});
