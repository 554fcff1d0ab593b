import type { Network } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { assertServiceAllowed } from './service-url';
import { providerContext } from './engine/settings';
import { classifyFailure, secretsOf } from './failure';
import type { DiscoveredChannel, ProviderCredentials } from './provider';
import { PROVIDERS } from './providers';

/** How long a connect waits for a network to list its channels. */
const DISCOVERY_TIMEOUT_MS = 20_000;

const invalid = (path: string, message: string) =>
  new AppError('validation_error', message, { issues: [{ path, message }] });

/** Error classes by which a network refuses the credentials themselves. */
const REFUSALS = new Set(['revoked', 'token_expired', 'rejected']);

/**
 * The channels these credentials publish to, as the network lists them (docs/publishing.md): at
 * connect, for API-key networks (checking the key) and after an OAuth grant. A network that
 * refuses the credentials is 400 naming `apiKey`; one that cannot be reached is 502
 * `integration_unreachable`, and nothing is stored.
 */
export async function discoverNetworkChannels(
  network: Network,
  /**
   * As the engine will read them: `extra.serviceUrl` is the account's own server (a Bluesky
   * PDS, a Mastodon instance), checked here before it is called; Bluesky's `extra.handle`.
   */
  credentials: ProviderCredentials,
): Promise<DiscoveredChannel[]> {
  const provider = PROVIDERS[network];
  if (network === 'bluesky' && !credentials.extra?.handle) {
    throw invalid('handle', 'Bluesky connects with the handle the app password belongs to.');
  }
  const serviceUrl = credentials.extra?.serviceUrl;
  if (serviceUrl) await assertServiceAllowed(serviceUrl);
  // The engine's context (one place): the account's server or the network's configured API,
  // and our OAuth app there, with which OAuth networks trade short-lived tokens for long ones.
  const context = {
    ...providerContext(network, credentials),
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  };
  try {
    return await provider.discoverChannels(credentials, context);
  } catch (error) {
    // The network's words, cleaned and without the credentials it may echo (failure.ts).
    const classified = classifyFailure(provider, error, secretsOf([credentials], context));
    // Refused at the call, past the check above: its DNS changed in between.
    if (classified.class === 'address_refused') {
      throw invalid(
        'serviceUrl',
        'serviceUrl resolves to a private, loopback or link-local address.',
      );
    }
    if (REFUSALS.has(classified.class)) {
      throw invalid('apiKey', `${provider.name} refused these credentials: ${classified.message}`);
    }
    throw new AppError(
      'integration_unreachable',
      `${provider.name} could not be reached at ${new URL(context.apiUrl).origin}: ${classified.message}`,
    );
  }
}
