import type { Db } from '@chorus/db';
import type { Network } from '@chorus/validators';
import { classifyFailure, secretsOf, type Failure } from '../failure';
import type { Provider, ProviderCredentials, PublishProgress } from '../provider';
import {
  claimTargets,
  heartbeat,
  markNeedsReconnect,
  saveProgress,
  writeOutcome,
  type Outcome,
  type TargetRow,
} from './claim';
import { recordOutcome } from './record';
import type { MediaSource } from './media';
import { verdict } from './policy';
import { prepareAttempts, type Prepared, type Ready } from './prepare';
import { networkRefresh, refreshedCredentials } from './refresh';
import { providerContext, publishingSettings, type PublishingSettings } from './settings';
import { warnOperator } from '../../shared/worker-log';

export interface EngineOptions {
  db: Db;
  media?: MediaSource;
  settings?: PublishingSettings;
  env?: Record<string, string | undefined>;
}

export type AttemptResult = Outcome['status'] | null;

/** Told of each target as its attempt ends (or at once, when it was not due), in any order. */
export type OnSettled = (targetId: string) => void;

/**
 * One attempt at each of these targets: claimed together before any network
 * call, what they need read in a few queries for the whole batch, then each sent on its own,
 * its outcome written after with the post settled; an expired token is refreshed once and the
 * call made again. Answers each target's new status, in order, or null where it was not due
 * (another worker has it, or a duplicate job). Never throws for a network's failure: that is
 * an outcome. `onSettled` hears of each target as soon as it is done, before the slowest.
 */
export async function publishTargets(
  opts: EngineOptions,
  targetIds: string[],
  onSettled: OnSettled = () => {},
): Promise<AttemptResult[]> {
  const { db } = opts;
  const settings = opts.settings ?? publishingSettings(opts.env);
  const claims = await claimTargets(db, targetIds);
  const claimed = new Set(claims.map((claim) => claim.id));
  for (const id of targetIds) if (!claimed.has(id)) onSettled(id);
  let prepared: Prepared[];
  try {
    prepared = await prepareAttempts(db, claims, opts.media ?? {});
  } catch {
    // Nothing left for the network yet: the targets wait for their next attempt, not a person.
    // The database's own message stays out of the target's error, which users read.
    const nextAttemptAt = new Date(Date.now() + settings.backoffMs);
    const error = {
      code: 'network_error',
      message: 'The attempt could not start: Chorus could not read what to send. It will retry.',
      retryable: true,
    };
    prepared = claims.map((claim) => ({
      claim,
      outcome: { status: 'pending', nextAttemptAt, error },
    }));
  }
  const results = new Map<string, AttemptResult>();
  await Promise.all(
    prepared.map(async (item) => {
      const result =
        'outcome' in item
          ? await settle(db, item.claim, item.outcome).catch(() => null)
          : await send(opts, settings, item.claim, item.ready);
      results.set(item.claim.id, result);
      onSettled(item.claim.id);
    }),
  );
  return targetIds.map((id) => results.get(id) ?? null);
}

/** One attempt at one target: `publishTargets` of one. */
export async function publishTarget(opts: EngineOptions, targetId: string): Promise<AttemptResult> {
  const [result] = await publishTargets(opts, [targetId]);
  return result ?? null;
}

/** The network call of one claimed target, under its lease and timeout, and its outcome. */
async function send(
  opts: EngineOptions,
  settings: PublishingSettings,
  claim: TargetRow,
  found: Ready,
): Promise<AttemptResult> {
  const { db } = opts;
  const { provider, network } = found;
  const lease = setInterval(() => {
    heartbeat(db, claim).catch(() => {});
  }, settings.leaseMs / 4);
  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), settings.timeoutMs);
  // What the network holds so far (earlier attempts' progress, then this one's).
  let progress = claim.progress;
  const call = (credentials: ProviderCredentials) =>
    provider.publish(
      {
        targetId: claim.id,
        revision: claim.revision,
        channel: {
          externalId: found.channel.externalId,
          handle: found.channel.handle,
          credentials,
        },
        parts: found.parts,
        firstComment: claim.firstComment,
        progress: claim.progress,
        saveProgress: async (next) => {
          await saveProgress(db, claim, next);
          progress = next;
        },
      },
      { ...providerContext(network, credentials, opts.env), signal: abort.signal },
    );
  try {
    const outcome = await attempt(opts, found, call, network, provider);
    if ('externalId' in outcome) {
      return await recordOutcome(db, claim, { status: 'published', ...outcome });
    }
    return await settleFailure(db, claim, found, outcome, settings, provider, progress);
  } finally {
    clearInterval(lease);
    clearTimeout(timeout);
  }
}

/** Publishes, refreshing an expired token once; answers the publication or the classified error. */
async function attempt(
  opts: EngineOptions,
  found: Ready,
  call: (credentials: ProviderCredentials) => Promise<{ externalId: string; url: string }>,
  network: Network,
  provider: Provider,
) {
  // The credentials this attempt used (a refreshed set too), whose secrets a network's
  // words may echo: kept out of the target's error and the worker's log (failure.ts).
  const used = [found.credentials];
  const context = providerContext(network, found.credentials, opts.env);
  const failed = (error: unknown): Failure =>
    classifyFailure(provider, error, secretsOf(used, context));
  try {
    return await call(found.credentials);
  } catch (error) {
    const failure = failed(error);
    if (failure.class !== 'token_expired') return failure;
    let fresh: ProviderCredentials;
    try {
      fresh = await refreshedCredentials(opts, {
        ...found,
        refresh: networkRefresh(network, provider, opts.env),
      });
    } catch (refusal) {
      return failed(refusal);
    }
    used.push(fresh);
    try {
      return await call(fresh);
    } catch (again) {
      return failed(again);
    }
  }
}

/**
 * An outcome decided before any network call (the attempt could not start): a write that fails
 * leaves the target to the sweep, which may send it, as nothing was sent yet.
 */
async function settle(db: Db, claim: TargetRow, outcome: Outcome): Promise<AttemptResult> {
  return (await writeOutcome(db, claim, outcome)) ? outcome.status : null;
}

async function settleFailure(
  db: Db,
  claim: TargetRow,
  found: Ready,
  failure: Failure,
  settings: PublishingSettings,
  provider: Provider,
  progress: PublishProgress,
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
  // What the account reads is in plain words (policy.ts, http.ts); what went wrong on the wire
  // (the host and port, the socket's code) is for whoever runs the worker: every failed
  // attempt writes it here (docs/publishing.md, States).
  warnOperator(
    decided.kind === 'unconfirmed' ? 'publishing target unconfirmed' : 'publishing attempt failed',
    {
      targetId: claim.id,
      class: failure.class,
      message: decided.error.message,
      detail: failure.detail,
    },
  );
  const outcome: Outcome =
    decided.kind === 'retry'
      ? { status: 'pending', nextAttemptAt: decided.at, error: decided.error }
      : decided.kind === 'failed'
        ? { status: 'failed', error: decided.error, head: provider.head(progress) }
        : { status: decided.kind, error: decided.error };
  const reconnect = decided.kind === 'failed' && decided.reconnect;
  return recordOutcome(db, claim, outcome, async (tx) => {
    if (reconnect) await markNeedsReconnect(tx, found.connection);
  });
}
