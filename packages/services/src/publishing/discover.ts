import {
  cleanLine,
  clipLine,
  hasAnyControl,
  hasBidiControl,
  type Network,
} from '@chorus/validators';
import { AppError } from '../shared/errors';
import { assertServiceAllowed } from './service-url';
import { providerContext } from './engine/settings';
import { inWords } from '../shared/answer-body';
import { classifyFailure, secretsOf } from './failure';
import { NetworkError } from './http';
import type { DiscoveredChannel, ProviderCredentials } from './provider';
import { PROVIDERS } from './providers';

/** How long a connect waits for a network to list its channels. */
const DISCOVERY_TIMEOUT_MS = 20_000;

const invalid = (path: string, message: string) =>
  new AppError('validation_error', message, { issues: [{ path, message }] });

/** Error classes by which a network refuses the credentials themselves. */
const REFUSALS = new Set(['revoked', 'token_expired', 'rejected']);

/** Longer than any name a network allows (Mastodon 30, Bluesky 64, a Facebook Page 75). */
const MAX_NAME = 200;
/** Longer than any handle: a username at a domain of 253 characters (Mastodon, Bluesky). */
const MAX_HANDLE = 300;
/** Longer than any channel id: a did:web, a Mastodon id at its domain, an urn, a number. */
const MAX_EXTERNAL_ID = 300;

/**
 * A discovered channel as Chorus keeps it: every field is the network's (or the user's
 * server's) and hostile. Its name and handle are clean lines of a sensible length (shown in
 * pages and lists, printed to terminals); an id no network uses (too long, a control
 * character) is the server misbehaving, and the connect is refused rather than storing it.
 */
function kept(networkName: string, channel: DiscoveredChannel): DiscoveredChannel {
  const { externalId } = channel;
  if (
    externalId === '' ||
    externalId.length > MAX_EXTERNAL_ID ||
    hasAnyControl(externalId) ||
    hasBidiControl(externalId)
  ) {
    throw new AppError(
      'integration_unreachable',
      `${networkName} answered an id Chorus cannot keep for its channel: empty, longer than ${MAX_EXTERNAL_ID} characters, or with control characters.`,
    );
  }
  return {
    ...channel,
    name: clipLine(cleanLine(channel.name), MAX_NAME) || externalId,
    handle: clipLine(cleanLine(channel.handle), MAX_HANDLE) || externalId,
  };
}

/**
 * The channels these credentials publish to, as the network lists them (docs/publishing.md): at
 * connect, for API-key networks (checking the key) and after an OAuth grant. A network that
 * refuses the credentials is 400 naming `apiKey`; one that cannot be reached, or answers what
 * cannot be kept (`kept`), is 502 `integration_unreachable`, and nothing is stored.
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
  let discovered: DiscoveredChannel[];
  try {
    discovered = await provider.discoverChannels(credentials, context);
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
    const origin = new URL(context.apiUrl).origin;
    // Reached, and answering more than any real answer: not an unreachable network.
    if (error instanceof NetworkError && error.details.overLimit !== undefined) {
      throw new AppError(
        'integration_unreachable',
        `${provider.name} at ${origin} answered more than Chorus reads (over ${inWords(error.details.overLimit)}).`,
      );
    }
    throw new AppError(
      'integration_unreachable',
      `${provider.name} could not be reached at ${origin}: ${classified.message}`,
    );
  }
  return discovered.map((channel) => kept(provider.name, channel));
}
