import { cleanMessage } from '@chorus/validators';
import { failureDetail } from './http';
import type { ClassifiedError, Provider, ProviderContext, ProviderCredentials } from './provider';

/**
 * A network's failure as Chorus keeps it: the one way every caller of a provider's `classify`
 * (an attempt, a connect, the figures' sync, a token refresh) reads it. A network's words are
 * hostile (docs/security.md, "Words from networks"): a NUL that PostgreSQL cannot store, a
 * terminal's escapes, a bidirectional override, a page of text, the very token it refused. So
 * the message and the details pass through `cleanMessage` with the channel's secrets
 * (`secretsOf`) before anything stores, shows or logs them.
 */

/** The most of an error's details the worker's log keeps. */
const DETAIL_MAX = 2000;

/** Keys of a credentials' `extra` that name the account or its server rather than unlock it. */
const PUBLIC_EXTRA = new Set(['did', 'handle', 'serviceUrl', 'instanceUrl', 'clientId']);

/**
 * Every secret these credentials hold (the access and refresh tokens, whatever `extra` keeps
 * but the account's names and server: an app password, a client secret), and our OAuth app's
 * secret at the network when `context` has one.
 */
export function secretsOf(
  credentials: readonly (ProviderCredentials | undefined)[],
  context?: Pick<ProviderContext, 'oauth'>,
): string[] {
  const secrets = credentials.flatMap((held) =>
    held
      ? [
          held.accessToken,
          held.refreshToken ?? '',
          ...Object.entries(held.extra ?? {})
            .filter(([key]) => !PUBLIC_EXTRA.has(key))
            .map(([, value]) => value),
        ]
      : [],
  );
  if (context?.oauth) secrets.push(context.oauth.clientSecret);
  return secrets.filter((secret) => typeof secret === 'string' && secret !== '');
}

/** A classified failure and its error's details (hosts, socket codes), which only the log shows. */
export type Failure = ClassifiedError & { detail: string };

/** Said when a network's message is nothing once cleaned (only control characters, say). */
const WORDLESS = 'The network gave no reason.';

/** `provider.classify(error)`, its message and details cleaned, without any of `secrets`. */
export function classifyFailure(
  provider: Pick<Provider, 'classify'>,
  error: unknown,
  secrets: readonly string[],
): Failure {
  const classified = provider.classify(error);
  return {
    ...classified,
    message: cleanMessage(classified.message, { secrets }) || WORDLESS,
    detail: cleanMessage(failureDetail(error), { secrets, max: DETAIL_MAX }),
  };
}
