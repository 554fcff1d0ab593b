import {
  and,
  channels,
  eq,
  gt,
  integrationConnections,
  isNotNull,
  like,
  lt,
  postTargets,
  sql,
  trackedEvents,
  type Db,
} from '@chorus/db';
import type { TrackedEventType } from '@chorus/validators';
import { utcDay } from '../../analytics/records';
import { applyFigures, type Figure } from '../../analytics/sync';
import { warnOperator } from '../../shared/worker-log';
import { publishingCredentials } from '../credentials';
import { classifyFailure, secretsOf } from '../failure';
import type { PostFigures, Provider } from '../provider';
import { PROVIDERS } from '../providers';
import { markNeedsReconnect } from './claim';
import { networkOf, providerContext } from './settings';

/** Published targets are read back this long after they went out. */
export const FIGURES_WINDOW_DAYS = 30;

const TYPES: Record<keyof PostFigures, TrackedEventType> = {
  like: 'like',
  share: 'share',
  comment: 'comment',
  impression: 'impression',
  view: 'view',
  click: 'click',
};

type ChannelRow = typeof channels.$inferSelect;
type ConnectionRow = typeof integrationConnections.$inferSelect;

/** The sync key prefix of this source: apart from the metrics-endpoint sync's rows. */
const prefixOf = (integrationId: string) => `${integrationId}/published`;

/**
 * A channel whose network would not give its figures: skipped until the next run, and said in
 * the worker's log (the network's words and the wire detail, never a token). A revoked grant
 * marks the connection `needs_reconnect`, with its event, as a publish refused so does
 * (docs/publishing.md): its figures, and its publishing, wait for the account to connect again.
 */
async function notRead(
  db: Db,
  provider: Provider,
  { channel, connection }: { channel: ChannelRow; connection: ConnectionRow },
  error: unknown,
  secrets: string[],
) {
  const failure = classifyFailure(provider, error, secrets);
  warnOperator('published figures not read', {
    accountId: channel.accountId,
    integrationId: channel.integrationId,
    channelId: channel.id,
    class: failure.class,
    message: failure.message,
    detail: failure.detail,
  });
  if (failure.class === 'revoked') await db.transaction((tx) => markNeedsReconnect(tx, connection));
}

/**
 * Reads the figures of every published target (docs/publishing.md) from its network and records
 * them as tracked events of the post (`contentId`) and the channel's integration. Networks
 * give running totals; each UTC day's row holds what that day added (the total less the days
 * before), set, not added, at every run: running it again changes nothing, and a later run
 * the same day moves that day's row to the new total. Targets of one post on two channels of
 * an integration add up. A channel whose network cannot be read is skipped until the next run
 * (`notRead`).
 * Returns how many targets' figures it read.
 */
export async function syncPublishedFigures(opts: {
  db: Db;
  now?: Date;
  env?: Record<string, string | undefined>;
}): Promise<number> {
  const { db } = opts;
  const now = opts.now ?? new Date();
  const today = utcDay(now);
  const rows = await db
    .select({ target: postTargets, channel: channels, connection: integrationConnections })
    .from(postTargets)
    .innerJoin(
      channels,
      and(eq(channels.id, postTargets.channelId), eq(channels.accountId, postTargets.accountId)),
    )
    .innerJoin(
      integrationConnections,
      and(
        eq(integrationConnections.accountId, channels.accountId),
        eq(integrationConnections.integrationId, channels.integrationId),
        eq(integrationConnections.status, 'connected'),
      ),
    )
    .where(
      and(
        eq(postTargets.status, 'published'),
        isNotNull(postTargets.externalId),
        gt(postTargets.publishedAt, new Date(now.getTime() - FIGURES_WINDOW_DAYS * 864e5)),
      ),
    );
  const byChannel = new Map<string, typeof rows>();
  for (const row of rows)
    byChannel.set(row.channel.id, [...(byChannel.get(row.channel.id) ?? []), row]);

  // Totals per account and integration, then per post and type.
  const totals = new Map<string, Map<string, number>>();
  let read = 0;
  for (const group of byChannel.values()) {
    const [{ channel, connection } = {} as (typeof rows)[number]] = group;
    const network = networkOf(channel.integrationId);
    const provider = network ? PROVIDERS[network] : undefined;
    const found = publishingCredentials(channel, connection);
    if (!network || !provider || !found) continue;
    let figures: Map<string, PostFigures>;
    const context = providerContext(network, found.credentials, opts.env);
    try {
      figures = await provider.metrics(
        group.map((row) => row.target.externalId ?? ''),
        { externalId: channel.externalId, credentials: found.credentials },
        { ...context, signal: AbortSignal.timeout(30_000) },
      );
    } catch (error) {
      const secrets = secretsOf([found.credentials], context);
      await notRead(db, provider, { channel, connection }, error, secrets);
      continue;
    }
    const key = `${channel.accountId}\u0000${channel.integrationId}`;
    const sums = totals.get(key) ?? new Map<string, number>();
    totals.set(key, sums);
    for (const { target } of group) {
      const got = figures.get(target.externalId ?? '');
      if (!got) continue;
      read += 1;
      for (const [name, value] of Object.entries(got) as [keyof PostFigures, number][]) {
        if (!Number.isSafeInteger(value) || value < 0) continue;
        const at = `${target.postId}\u0000${TYPES[name]}`;
        sums.set(at, (sums.get(at) ?? 0) + value);
      }
    }
  }

  for (const [key, sums] of totals) {
    const [accountId = '', integrationId = ''] = key.split('\u0000');
    const earlier = await db
      .select({
        postId: trackedEvents.contentId,
        type: trackedEvents.type,
        total: sql<number>`coalesce(sum(${trackedEvents.count}), 0)::float8`,
      })
      .from(trackedEvents)
      .where(
        and(
          eq(trackedEvents.accountId, accountId),
          like(trackedEvents.syncKey, `${prefixOf(integrationId)}:%`),
          lt(trackedEvents.occurredAt, new Date(`${today}T00:00:00.000Z`)),
        ),
      )
      .groupBy(trackedEvents.contentId, trackedEvents.type);
    const before = new Map(
      earlier.map((row) => [`${row.postId}\u0000${row.type}`, Number(row.total)]),
    );
    const figures: Figure[] = [...sums].map(([at, total]) => {
      const [postId = '', type] = at.split('\u0000') as [string, TrackedEventType];
      return { postId, date: today, type, value: Math.max(0, total - (before.get(at) ?? 0)) };
    });
    await applyFigures(db, accountId, integrationId, figures, prefixOf(integrationId));
  }
  return read;
}
