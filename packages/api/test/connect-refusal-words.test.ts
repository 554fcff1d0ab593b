import { integrationConnections } from '@chorus/db';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

/**
 * A connect the instance refuses answers the instance's words, cleaned (docs/security.md,
 * "Words from networks"): no control character, no bidirectional override, never the
 * credentials it was given.
 */

let h: Harness;
let mastodon: MastodonStandIn;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'b'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  mastodon = await startMastodonStandIn();
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await mastodon?.close();
});

beforeEach(async () => {
  mastodon.faults.clear();
  await h.db.delete(integrationConnections);
});

const refuse = (path: string, status: number, error: string) =>
  mastodon.faults.inject({ kind: 'answer', answer: { status, body: { error } } }, { path });

/** Neither a control character (C0, C1) nor a bidirectional override or isolate. */
// Matching control characters is this expression's purpose.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

describe('a refused connect', () => {
  it("answers the instance's refusal of the token in clean words", async () => {
    refuse('/api/v1/accounts/verify_credentials', 401, 'Bad\u0000 \u001b[2J token \u202Egnp.exe');
    const { status, json } = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { apiKey: mastodon.token, serviceUrl: mastodon.url },
    });
    expect(status).toBe(400);
    const message = 'Mastodon refused these credentials: Bad [2J token gnp.exe';
    expect(json.error.message).toBe(message);
    expect(json.error.details.issues).toEqual([{ path: 'apiKey', message }]);
    expect(await h.db.select().from(integrationConnections)).toEqual([]);
  });

  it('never answers the token it was given, when the instance echoes it', async () => {
    const apiKey = 'pasted-token-0123456789';
    refuse('/api/v1/accounts/verify_credentials', 401, `The access token is invalid: ${apiKey}`);
    const { status, json } = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { apiKey, serviceUrl: mastodon.url },
    });
    expect(status).toBe(400);
    expect(json.error.message).toBe(
      'Mastodon refused these credentials: The access token is invalid: [redacted]',
    );
    expect(JSON.stringify(json)).not.toContain(apiKey);
  });

  it("answers the instance's refusal to register Chorus in clean words", async () => {
    // An OSC 8 hyperlink (a terminal's escape), then a right-to-left override.
    refuse(
      '/api/v1/apps',
      422,
      'no\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u202Eevil',
    );
    const { status, json } = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { serviceUrl: mastodon.url },
    });
    expect(status).toBe(400);
    expect(json.error.details.issues[0].path).toBe('serviceUrl');
    expect(json.error.message).toBe(
      'The instance refused to register Chorus: no ]8;;https://evil.example click ]8;; evil.',
    );
    expect(json.error.message).not.toMatch(CONTROLS);
  });

  it("answers an instance's error page in clean words too, when it cannot be reached", async () => {
    refuse('/api/v1/accounts/verify_credentials', 503, 'Down\u0085 for\u2028maintenance\u001b[5m');
    const { status, json } = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { apiKey: mastodon.token, serviceUrl: mastodon.url },
    });
    expect(status).toBe(502);
    expect(json.error.code).toBe('integration_unreachable');
    expect(json.error.message).toMatch(/: Down for maintenance \[5m$/);
  });
});
