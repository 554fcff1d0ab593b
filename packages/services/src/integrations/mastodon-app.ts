import { and, eq, mastodonApps, type Db } from '@chorus/db';
import { cleanMessage } from '@chorus/validators';
import { serviceFetch, serviceUrlRefused } from '../publishing/service-url';
import { AnswerTooLarge, inWords, readAnswerStart, readAnswerText } from '../shared/answer-body';
import { AppError } from '../shared/errors';
import { TargetRefused } from '../webhooks/targets';
import type { OAuthEntry } from './catalogue';
import type { Credentials } from './connections';
import { seal, unseal } from './encryption';
import { revokeTokens } from './oauth-client';
import type { ConfiguredProvider } from './settings';

/**
 * Chorus's app on a Mastodon instance. There is no app to configure ahead, since every instance
 * is its own server: Chorus registers itself on an instance (`POST /api/v1/apps`) the first time
 * someone connects through it and keeps that app (one per instance and callback URL), whose
 * credentials both the grant and its revocation need (docs.joinmastodon.org, "OAuth").
 */

/** What publishing needs and nothing more: the same scopes the setup steps ask of a token. */
export const SCOPES = ['read:accounts', 'read:statuses', 'write:media', 'write:statuses'];
const TIMEOUT_MS = 10_000;

/** The instance's OAuth server, as the generic OAuth client reads a catalogue entry. */
export function instanceOAuth(
  instanceUrl: string,
  app: { clientId: string; clientSecret: string },
) {
  const entry: OAuthEntry = {
    id: 'mastodon',
    name: 'Mastodon',
    type: 'social',
    description: '',
    status: 'active',
    authMethod: 'oauth2',
    scopes: SCOPES,
    clientAuth: 'client_secret_post',
    urls: {
      authorize: `${instanceUrl}/oauth/authorize`,
      token: `${instanceUrl}/oauth/token`,
      profile: `${instanceUrl}/api/v1/accounts/verify_credentials`,
      revoke: `${instanceUrl}/oauth/revoke`,
    },
    revoke: { style: 'rfc7009' },
    profile: { accountName: 'username' },
    setupSteps: [],
  };
  const provider: ConfiguredProvider = {
    ...app,
    authorizeUrl: entry.urls.authorize,
    tokenUrl: entry.urls.token,
    refreshUrl: entry.urls.token,
    profileUrl: entry.urls.profile,
    revokeUrl: entry.urls.revoke,
    metricsUrl: undefined,
    // Every URL is on the instance, a user's choice: the code exchange and the revocation
    // are checked at the call like every other request to it (oauth-client.ts).
    guarded: true,
  };
  return { entry, provider };
}

const appContext = (instanceUrl: string, redirectUri: string) =>
  `mastodon-app:${instanceUrl}:${redirectUri}`;

const refused = (message: string) =>
  new AppError('validation_error', message, { issues: [{ path: 'serviceUrl', message }] });

/** Our app on the instance for this callback URL, if one was registered. */
export async function registeredApp(db: Db, instanceUrl: string, redirectUri: string) {
  const [row] = await db
    .select()
    .from(mastodonApps)
    .where(
      and(eq(mastodonApps.instanceUrl, instanceUrl), eq(mastodonApps.redirectUri, redirectUri)),
    );
  return row
    ? {
        clientId: row.clientId,
        clientSecret: unseal(row.clientSecret, appContext(instanceUrl, redirectUri)),
      }
    : null;
}

/**
 * The instance's answer to registering Chorus: its JSON object, read under the cap of every
 * answer (a refusal's only for its start); {} when it is not one or breaks off.
 */
async function registration(instanceUrl: string, res: Response): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(
      res.ok ? await readAnswerText(res) : await readAnswerStart(res),
    );
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch (error) {
    if (!(error instanceof AnswerTooLarge)) return {};
    throw new AppError(
      'integration_unreachable',
      `The instance ${instanceUrl} answered with more than ${inWords(error.limit)}.`,
    );
  }
}

/** Our app on the instance for this callback URL: the one registered before, else a new one. */
export async function instanceApp(db: Db, instanceUrl: string, redirectUri: string) {
  const known = await registeredApp(db, instanceUrl, redirectUri);
  if (known) return known;
  let res: Response;
  try {
    // The instance is the user's choice: checked again at the call (service-url.ts).
    res = await serviceFetch(`${instanceUrl}/api/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_name: 'Chorus',
        redirect_uris: [redirectUri],
        scopes: SCOPES.join(' '),
        website: new URL(redirectUri).origin,
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof TargetRefused) throw serviceUrlRefused(error);
    throw new AppError('integration_unreachable', `The instance ${instanceUrl} cannot be reached.`);
  }
  const body = await registration(instanceUrl, res);
  const clientId = typeof body.client_id === 'string' ? body.client_id : '';
  const clientSecret = typeof body.client_secret === 'string' ? body.client_secret : '';
  if (!res.ok || !clientId || !clientSecret) {
    // The instance's words, cleaned (docs/security.md, "Words from networks").
    const words = typeof body.error === 'string' ? cleanMessage(body.error, { max: 200 }) : '';
    const said = words ? `: ${words}` : '';
    throw refused(`The instance refused to register Chorus${said}.`);
  }
  // Two first connections at once each register an app; the first stored is the one kept.
  await db
    .insert(mastodonApps)
    .values({
      instanceUrl,
      redirectUri,
      clientId,
      clientSecret: seal(clientSecret, appContext(instanceUrl, redirectUri)),
    })
    .onConflictDoNothing();
  return (await registeredApp(db, instanceUrl, redirectUri)) ?? { clientId, clientSecret };
}

/** The app of ours that a token was issued to, or null when it is no longer kept. */
async function appByClientId(db: Db, instanceUrl: string, clientId: string) {
  const [row] = await db
    .select()
    .from(mastodonApps)
    .where(and(eq(mastodonApps.instanceUrl, instanceUrl), eq(mastodonApps.clientId, clientId)));
  return row
    ? { clientId, clientSecret: unseal(row.clientSecret, appContext(instanceUrl, row.redirectUri)) }
    : null;
}

/**
 * Disconnecting a Mastodon that was signed in on its instance revokes the token there, with the
 * app it was issued to: best effort, like every revocation (docs/integrations.md). A pasted
 * token is the user's own, made on the instance, and is left to them.
 */
export async function revokeMastodonGrant(db: Db, credentials: Credentials): Promise<boolean> {
  const { serviceUrl, clientId } = credentials.extra ?? {};
  if (credentials.kind !== 'oauth2' || !serviceUrl || !clientId) return false;
  const app = await appByClientId(db, serviceUrl, clientId);
  if (!app) return false;
  const { entry, provider } = instanceOAuth(serviceUrl, app);
  return revokeTokens(entry, provider, credentials);
}
