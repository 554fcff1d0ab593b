import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyFailure,
  PROVIDERS,
  secretsOf,
  type Provider,
  type ProviderCredentials,
} from '../../src/publishing';
import { failure, publishRequest } from './harness';

/**
 * A network's failure as the engine keeps it (docs/security.md, "Words from networks"): its
 * words and details cleaned, and every secret of the credentials it was called with (and of
 * our OAuth app there) replaced by `[redacted]`, whatever the network echoes of them.
 */

let standIn: MastodonStandIn;
const provider = PROVIDERS.mastodon as Provider;

beforeAll(async () => {
  standIn = await startMastodonStandIn();
});
afterAll(() => standIn.close());

/** What the provider's publish throws when the instance answers `status` with `error`. */
async function refusal(status: number, error: string, credentials: ProviderCredentials) {
  standIn.faults.inject(
    { kind: 'answer', answer: { status, body: { error } } },
    { method: 'POST', path: '/api/v1/statuses' },
  );
  return failure(
    provider.publish(
      publishRequest({
        channel: { externalId: standIn.accountId, handle: '@alice', credentials },
        parts: [{ text: 'Echo' }],
      }).request,
      { apiUrl: standIn.url, guarded: false },
    ),
  );
}

describe('classifyFailure', () => {
  it('redacts every secret the credentials and our app hold, and nothing else', async () => {
    const credentials: ProviderCredentials = {
      accessToken: standIn.token,
      refreshToken: 'refresh-0123456789',
      extra: {
        appPassword: 'abcd-efgh-ijkl-mnop',
        handle: 'alice.example',
        did: 'did:plc:alice0123456789',
        serviceUrl: standIn.url,
      },
    };
    const clientSecret = 'client/secret+0123456789';
    const said = [
      `token ${standIn.token}`,
      'refresh refresh-0123456789',
      'password abcd-efgh-ijkl-mnop',
      `secret ${encodeURIComponent(clientSecret)}`,
      'for alice.example (did:plc:alice0123456789)',
    ].join(', ');
    const error = await refusal(422, said, credentials);
    const secrets = secretsOf([credentials], {
      oauth: { tokenUrl: `${standIn.url}/oauth/token`, clientId: 'ours', clientSecret },
    });
    expect(classifyFailure(provider, error, secrets)).toEqual({
      class: 'rejected',
      message:
        'token [redacted], refresh [redacted], password [redacted], secret [redacted], for alice.example (did:plc:alice0123456789)',
      detail: expect.any(String),
    });
  });

  it('says the network gave no reason when its words are only control characters', async () => {
    const credentials = { accessToken: standIn.token };
    const error = await refusal(422, '\u0000\u001b\u202E\u0085', credentials);
    expect(classifyFailure(provider, error, secretsOf([credentials]))).toMatchObject({
      class: 'rejected',
      message: 'The network gave no reason.',
    });
  });
});
