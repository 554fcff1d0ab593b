import {
  and,
  eq,
  inArray,
  integrationConnections,
  posts,
  sql,
  trackedEvents,
  type Db,
} from '@chorus/db';
import { ZDay, ZTrackedEventType, type TrackedEventType } from '@chorus/validators';
import { z } from 'zod';
import { AnswerTooLarge, readAnswerText } from '../shared/answer-body';
import { newId } from '../shared/ids';
import { CATALOGUE, findEntry } from '../integrations/catalogue';
import { readCredentials } from '../integrations/connections';
import { providerSettings } from '../integrations/settings';
import { markNeedsReconnect } from '../publishing/engine/claim';
import { warnOperator } from '../shared/worker-log';
import { utcDay } from './records';
import { addToRollups, type RollupChange } from './rollups';

type Env = Record<string, string | undefined>;

/** Days read back at every sync: platforms revise recent figures. */
export const SYNC_WINDOW_DAYS = 30;
const TIMEOUT_MS = 10_000;
/** Keys per `in (…)` list, well under PostgreSQL's 65,535 parameters. */
const CHUNK = 5000;

/**
 * What a provider's metrics endpoint answers (docs/analytics.md): per post and UTC day, the
 * platform's running figure for each type. Unknown types and malformed items are skipped.
 */
const ZMetricsAnswer = z.object({
  data: z.array(z.unknown()),
});
const ZMetricsItem = z.object({
  postId: z.string().min(1).max(64),
  date: ZDay,
  metrics: z.record(z.string(), z.unknown()),
});

export interface Figure {
  postId: string;
  date: string;
  type: TrackedEventType;
  value: number;
}

function figuresOf(answer: unknown): Figure[] {
  const parsed = ZMetricsAnswer.safeParse(answer);
  if (!parsed.success) throw new Error('the metrics answer is not { data: [...] }');
  const figures = new Map<string, Figure>();
  for (const raw of parsed.data.data) {
    const item = ZMetricsItem.safeParse(raw);
    if (!item.success) continue;
    for (const [name, value] of Object.entries(item.data.metrics)) {
      const type = ZTrackedEventType.safeParse(name);
      if (!type.success || !Number.isSafeInteger(value) || (value as number) < 0) continue;
      const figure = { postId: item.data.postId, date: item.data.date, type: type.data };
      // A repeated figure: the last one stands, as a re-run would make it.
      figures.set(JSON.stringify(figure), { ...figure, value: value as number });
    }
  }
  return [...figures.values()];
}

/** The metrics endpoint refused the connection's access token (401). */
class TokenRefused extends Error {
  constructor() {
    super('the metrics endpoint answered 401');
  }
}

async function fetchFigures(url: string, accessToken: string, today: string): Promise<Figure[]> {
  const target = new URL(url);
  const from = utcDay(new Date(Date.parse(`${today}T00:00:00Z`) - (SYNC_WINDOW_DAYS - 1) * 864e5));
  target.searchParams.set('from', from);
  target.searchParams.set('to', today);
  const res = await fetch(target, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status === 401) throw new TokenRefused();
  if (res.status !== 200) throw new Error(`the metrics endpoint answered ${res.status}`);
  let text: string;
  try {
    text = await readAnswerText(res);
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw new Error('the metrics answer is too large');
    throw error;
  }
  return figuresOf(JSON.parse(text));
}

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) =>
    items.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/**
 * Records a platform's figures as tracked events of its integration: one row per (post, day,
 * type) under a sync key, set to the platform's figure, with the daily counts moved by the
 * difference. A re-run with the same figures changes nothing; a revised figure moves the
 * counts by the revision. One sync per connection at a time (an advisory lock).
 */
export async function applyFigures(
  db: Db,
  accountId: string,
  integrationId: string,
  figures: Figure[],
  /** Sets the rows of one source apart (the published targets' sync uses its own). */
  keyPrefix: string = integrationId,
) {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`analytics-sync:${accountId}:${integrationId}`}))`,
    );
    const postIds = [...new Set(figures.map((f) => f.postId))];
    const known = new Set<string>();
    for (const ids of chunks(postIds)) {
      const rows = await tx
        .select({ id: posts.id })
        .from(posts)
        .where(and(eq(posts.accountId, accountId), inArray(posts.id, ids)));
      for (const row of rows) known.add(row.id);
    }
    const mine = figures.filter((f) => known.has(f.postId));
    const keyOf = (f: Figure) => `${keyPrefix}:${f.postId}:${f.date}:${f.type}`;
    const existing = new Map<string, { id: string; count: number }>();
    for (const keys of chunks(mine.map(keyOf))) {
      const rows = await tx
        .select({
          id: trackedEvents.id,
          syncKey: trackedEvents.syncKey,
          count: trackedEvents.count,
        })
        .from(trackedEvents)
        .where(and(eq(trackedEvents.accountId, accountId), inArray(trackedEvents.syncKey, keys)));
      for (const row of rows) existing.set(row.syncKey ?? '', row);
    }
    const now = new Date();
    const inserts: (typeof trackedEvents.$inferInsert)[] = [];
    const changes: RollupChange[] = [];
    let updated = 0;
    for (const figure of mine) {
      const key = keyOf(figure);
      const before = existing.get(key);
      const delta = figure.value - (before?.count ?? 0);
      if (delta === 0) continue;
      const occurredAt = new Date(`${figure.date}T00:00:00.000Z`);
      changes.push({
        occurredAt,
        type: figure.type,
        contentId: figure.postId,
        integrationId,
        count: delta,
      });
      if (before) {
        updated += 1;
        await tx
          .update(trackedEvents)
          .set({ count: figure.value })
          .where(eq(trackedEvents.id, before.id));
      } else {
        inserts.push({
          id: newId('aev'),
          accountId,
          type: figure.type,
          contentId: figure.postId,
          integrationId,
          occurredAt,
          count: figure.value,
          properties: { source: 'sync' },
          syncKey: key,
          createdAt: now,
        });
      }
    }
    for (let i = 0; i < inserts.length; i += 1000) {
      await tx.insert(trackedEvents).values(inserts.slice(i, i + 1000));
    }
    await addToRollups(tx, accountId, changes);
    await tx
      .update(integrationConnections)
      .set({ lastSyncAt: now })
      .where(
        and(
          eq(integrationConnections.accountId, accountId),
          eq(integrationConnections.integrationId, integrationId),
        ),
      );
    return { recorded: inserts.length, updated, skipped: figures.length - mine.length };
  });
}

/** The connections a sync reads: OAuth integrations whose metrics endpoint is configured. */
export async function connectionsToSync(db: Db, env: Env = process.env) {
  const synced = CATALOGUE.filter(
    (entry) => entry.authMethod === 'oauth2' && providerSettings(entry, env).metricsUrl,
  ).map((entry) => entry.id);
  if (synced.length === 0) return [];
  return db
    .select({
      accountId: integrationConnections.accountId,
      integrationId: integrationConnections.integrationId,
    })
    .from(integrationConnections)
    .where(
      and(
        inArray(integrationConnections.integrationId, synced),
        eq(integrationConnections.status, 'connected'),
      ),
    );
}

/**
 * Reads one connection's per-post figures from its provider and records them (see
 * `applyFigures`). Throws when the provider cannot be read, for the job to retry. A provider
 * that refuses a token not yet expired (401) refuses the grant: the connection is marked
 * `needs_reconnect`, with its event, as publishing marks it, and is not synced again until the
 * account connects again; an expired token's 401 is retried, for the refresh job to renew it.
 */
export async function syncConnectionAnalytics(opts: {
  db: Db;
  accountId: string;
  integrationId: string;
  env?: Env;
  today?: string;
}) {
  const { db, accountId, integrationId } = opts;
  const entry = findEntry(integrationId);
  const metricsUrl = entry?.authMethod === 'oauth2' && providerSettings(entry, opts.env).metricsUrl;
  if (!metricsUrl) return { skipped: 'not_configured' as const };
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.accountId, accountId),
        eq(integrationConnections.integrationId, integrationId),
      ),
    );
  if (!row) return { skipped: 'not_connected' as const };
  const credentials = readCredentials(row);
  if (credentials?.kind !== 'oauth2') return { skipped: 'no_credentials' as const };
  let figures: Figure[];
  try {
    figures = await fetchFigures(
      metricsUrl,
      credentials.accessToken,
      opts.today ?? utcDay(new Date()),
    );
  } catch (error) {
    const expired = row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() <= Date.now();
    if (!(error instanceof TokenRefused) || expired) throw error;
    warnOperator('analytics not synced', { accountId, integrationId, class: 'revoked' });
    await db.transaction((tx) => markNeedsReconnect(tx, row));
    return { skipped: 'needs_reconnect' as const };
  }
  return applyFigures(db, accountId, integrationId, figures);
}
