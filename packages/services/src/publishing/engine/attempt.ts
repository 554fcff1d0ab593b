import {
  and,
  asc,
  channels,
  eq,
  integrationConnections,
  postMedia,
  posts,
  type Db,
  type TargetError,
} from '@chorus/db';
import type { Network } from '@chorus/validators';
import { publishingCredentials } from '../credentials';
import type { Provider, ProviderCredentials, PublishPart } from '../provider';
import { PROVIDERS } from '../providers';
import {
  claimTarget,
  heartbeat,
  markNeedsReconnect,
  saveProgress,
  writeOutcome,
  type Outcome,
  type TargetRow,
} from './claim';
import { mediaRows, publishMedia, type MediaSource } from './media';
import { verdict } from './policy';
import { refreshedCredentials } from './refresh';
import {
  networkOf,
  providerContext,
  publishingSettings,
  type PublishingSettings,
} from './settings';

export interface EngineOptions {
  db: Db;
  media?: MediaSource;
  settings?: PublishingSettings;
  env?: Record<string, string | undefined>;
}

export type AttemptResult = Outcome['status'] | null;

const fail = (code: string, message: string, retryable: boolean): Outcome => ({
  status: 'failed',
  error: { code, message, retryable } satisfies TargetError,
});

/** The target's channel, connection and provider, or why it cannot be published to. */
async function destination(db: Db, claim: TargetRow) {
  const [channel] = await db
    .select()
    .from(channels)
    .where(and(eq(channels.id, claim.channelId), eq(channels.accountId, claim.accountId)))
    .limit(1);
  const network = channel ? networkOf(channel.integrationId) : null;
  const provider = network ? PROVIDERS[network] : undefined;
  const [connection] = channel
    ? await db
        .select()
        .from(integrationConnections)
        .where(
          and(
            eq(integrationConnections.accountId, claim.accountId),
            eq(integrationConnections.integrationId, channel.integrationId),
          ),
        )
        .limit(1)
    : [];
  if (!channel || !connection || !network || !provider) {
    return fail('channel_unavailable', 'The channel is no longer connected.', false);
  }
  if (connection.status === 'needs_reconnect') {
    return fail(
      'reconnect_required',
      'The network refused our access: reconnect the integration, then retry.',
      true,
    );
  }
  const found = publishingCredentials(channel, connection);
  if (!found) {
    return fail('reconnect_required', 'The stored credentials cannot be read: reconnect.', true);
  }
  return { channel, connection, network, provider, ...found };
}

/** The target's text and media, with the post's own where the target leaves a field out. */
async function partsOf(db: Db, claim: TargetRow, source: MediaSource) {
  const [post] = await db.select().from(posts).where(eq(posts.id, claim.postId)).limit(1);
  const postMediaIds = claim.mediaIds
    ? claim.mediaIds
    : (
        await db
          .select({ id: postMedia.mediaId })
          .from(postMedia)
          .where(eq(postMedia.postId, claim.postId))
          .orderBy(asc(postMedia.position))
      ).map((link) => link.id);
  const specs = [
    { text: claim.content ?? post?.content ?? '', mediaIds: postMediaIds },
    ...(claim.thread ?? []).map((part) => ({ text: part.content, mediaIds: part.mediaIds ?? [] })),
  ];
  const rows = await mediaRows(
    db,
    claim.accountId,
    specs.flatMap((spec) => spec.mediaIds),
  );
  const missing = specs.flatMap((spec) => spec.mediaIds).find((id) => !rows.has(id));
  if (missing) return fail('media_unavailable', `The media ${missing} no longer exists.`, false);
  return specs.map((spec): PublishPart => ({
    text: spec.text,
    media: spec.mediaIds.map((id) => publishMedia(rows.get(id) as never, source)),
  }));
}

/**
 * One attempt at one target (decisions §18): claimed before the network call, its outcome
 * written after with the post settled; an expired token is refreshed once and the call made
 * again. Answers the target's new status, or null when it was not due (another worker has it,
 * or a duplicate job). Never throws for a network's failure: that is an outcome.
 */
export async function publishTarget(opts: EngineOptions, targetId: string): Promise<AttemptResult> {
  const { db } = opts;
  const settings = opts.settings ?? publishingSettings(opts.env);
  const claim = await claimTarget(db, targetId);
  if (!claim) return null;
  let found: Awaited<ReturnType<typeof destination>>;
  let parts: Awaited<ReturnType<typeof partsOf>>;
  try {
    found = await destination(db, claim);
    if ('status' in found) return await settle(db, claim, found);
    parts = await partsOf(db, claim, opts.media ?? {});
    if (!Array.isArray(parts)) return await settle(db, claim, parts);
  } catch (error) {
    // Nothing left for the network yet: the target waits for its next attempt, not a person.
    const message = error instanceof Error ? error.message : 'The attempt could not start.';
    const at = new Date(Date.now() + settings.backoffMs);
    return settle(db, claim, {
      status: 'pending',
      nextAttemptAt: at,
      error: { code: 'network_error', message, retryable: true },
    }).catch(() => null);
  }

  const { provider, network } = found;
  const lease = setInterval(() => {
    heartbeat(db, claim).catch(() => {});
  }, settings.leaseMs / 4);
  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), settings.timeoutMs);
  const call = (credentials: ProviderCredentials) =>
    provider.publish(
      {
        targetId: claim.id,
        channel: {
          externalId: found.channel.externalId,
          handle: found.channel.handle,
          credentials,
        },
        parts,
        firstComment: claim.firstComment,
        progress: claim.progress,
        saveProgress: (progress) => saveProgress(db, claim, progress),
      },
      { ...providerContext(network, credentials, opts.env), signal: abort.signal },
    );
  try {
    const outcome = await attempt(opts, found, call, network, provider);
    if ('externalId' in outcome) {
      return settle(db, claim, { status: 'published', ...outcome });
    }
    return settleFailure(db, claim, found, outcome, settings, provider);
  } finally {
    clearInterval(lease);
    clearTimeout(timeout);
  }
}

type Found = Exclude<Awaited<ReturnType<typeof destination>>, Outcome>;

/** Publishes, refreshing an expired token once; answers the publication or the classified error. */
async function attempt(
  opts: EngineOptions,
  found: Found,
  call: (credentials: ProviderCredentials) => Promise<{ externalId: string; url: string }>,
  network: Network,
  provider: Provider,
) {
  try {
    return await call(found.credentials);
  } catch (error) {
    const failure = provider.classify(error);
    if (failure.class !== 'token_expired') return failure;
    let fresh: ProviderCredentials;
    try {
      fresh = await refreshedCredentials(opts, { ...found, network, provider });
    } catch (refusal) {
      return provider.classify(refusal);
    }
    try {
      return await call(fresh);
    } catch (again) {
      return provider.classify(again);
    }
  }
}

async function settle(db: Db, claim: TargetRow, outcome: Outcome): Promise<AttemptResult> {
  return (await writeOutcome(db, claim, outcome)) ? outcome.status : null;
}

async function settleFailure(
  db: Db,
  claim: TargetRow,
  found: Found,
  failure: ReturnType<Provider['classify']>,
  settings: PublishingSettings,
  provider: Provider,
): Promise<AttemptResult> {
  const decided = verdict(
    failure,
    {
      attempts: claim.attempts,
      firstAttemptAt: claim.firstAttemptAt ?? new Date(),
      now: new Date(),
      idempotent: provider.idempotent,
    },
    settings,
  );
  const outcome: Outcome =
    decided.kind === 'retry'
      ? { status: 'pending', nextAttemptAt: decided.at, error: decided.error }
      : { status: decided.kind, error: decided.error };
  const reconnect = decided.kind === 'failed' && decided.reconnect;
  const written = await writeOutcome(db, claim, outcome, async (tx) => {
    if (reconnect) await markNeedsReconnect(tx, claim.accountId, found.connection.integrationId);
  });
  return written ? outcome.status : null;
}
