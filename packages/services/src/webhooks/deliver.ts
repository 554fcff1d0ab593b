import { and, eq, sql, webhooks, type Db } from '@chorus/db';
import { bulkInsert, jsonRecords } from '../shared/bulk';
import { newId } from '../shared/ids';
import { claimDueDeliveries, type Claimed } from './claim';
import { signingSecrets, type WebhookRow } from './records';
import { sendAttempt, type AttemptResult } from './send';
import { webhookSettings, type WebhookSettings } from './settings';
import { signatureHeader } from './signing';

/** An endpoint failing (every delivery) for this long is turned off (docs/webhooks.md). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;

/** One attempt: signed per Standard Webhooks with every secret that signs now. */
async function attempt({ delivery, webhook, body }: Claimed, settings: WebhookSettings) {
  if (!webhook.active) {
    return { statusCode: null, durationMs: 0, responseExcerpt: null, error: 'endpoint disabled' };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Chorus-Webhooks/1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader({
      secrets: signingSecrets(webhook),
      id: delivery.eventId,
      timestamp,
      body,
    }),
  };
  return sendAttempt({
    url: webhook.url,
    headers,
    body,
    allowPrivateTargets: settings.allowPrivateTargets,
  });
}

const succeeded = (result: AttemptResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** An attempt made, to be logged. */
export interface DeliveryOutcome {
  claimed: Claimed;
  result: AttemptResult;
  startedAt: Date;
}

/** One attempt of a claimed delivery; never rejects (an error is the attempt's outcome). */
export async function sendDelivery(
  claimed: Claimed,
  settings: WebhookSettings,
): Promise<DeliveryOutcome> {
  const startedAt = new Date();
  const result = await attempt(claimed, settings).catch((error: Error): AttemptResult => ({
    statusCode: null,
    durationMs: 0,
    responseExcerpt: null,
    error: error.message.replaceAll('\0', '').slice(0, 200),
  }));
  return { claimed, result, startedAt };
}

/**
 * Logs attempts and moves their deliveries and endpoints on, in one transaction
 * (one commit for all of them): success ends a delivery and its endpoint's failing streak; 410
 * fails it and turns the endpoint off at once; any other failure waits for the next step of
 * the schedule, or fails the delivery after the last one; 5 days of failures turn the
 * endpoint off. A worker dying before this commit leaves them due again: at least once.
 */
export async function recordDeliveryOutcomes(
  db: Db,
  outcomes: DeliveryOutcome[],
  settings: WebhookSettings,
) {
  if (outcomes.length === 0) return;
  const now = new Date();
  const endpoints = new Map<
    string,
    { webhook: WebhookRow; ok: boolean; gone: boolean; failed: boolean }
  >();
  await db.transaction(async (tx) => {
    const attempts: object[] = [];
    const moves: object[] = [];
    for (const { claimed, result, startedAt } of outcomes) {
      const { delivery, webhook } = claimed;
      const ok = succeeded(result);
      const gone = result.statusCode === 410;
      const runAttempts = delivery.runAttempts + 1;
      const wait = settings.retrySchedule[runAttempts - 1];
      const retry = !ok && !gone && webhook.active && wait !== undefined;
      attempts.push({
        id: newId('att'),
        delivery_id: delivery.id,
        attempt: delivery.attempts + 1,
        started_at: startedAt,
        duration_ms: result.durationMs,
        status_code: result.statusCode,
        response_excerpt: result.responseExcerpt,
        error: result.error,
      });
      moves.push({
        id: delivery.id,
        lease_until: delivery.nextAttemptAt,
        run_attempts: runAttempts,
        status: ok ? 'succeeded' : retry ? 'pending' : 'failed',
        next_attempt_at: retry ? new Date(now.getTime() + wait * 1000) : null,
      });
      if (!webhook.active) continue;
      const endpoint = endpoints.get(webhook.id) ?? {
        webhook,
        ok: false,
        gone: false,
        failed: false,
      };
      endpoints.set(webhook.id, {
        webhook,
        ok: endpoint.ok || ok,
        gone: endpoint.gone || gone,
        failed: endpoint.failed || !ok,
      });
    }
    // Set-based: one statement each for the batch's attempts and deliveries.
    await tx.execute(
      bulkInsert(
        'webhook_attempts',
        {
          id: 'text',
          delivery_id: 'text',
          attempt: 'int',
          started_at: 'timestamptz',
          duration_ms: 'int',
          status_code: 'int',
          response_excerpt: 'text',
          error: 'text',
        },
        attempts,
      ),
    );
    // A delivery still under this worker's lease moves on; one retried meanwhile (due now, its
    // schedule afresh) keeps what the retry set, and only counts the attempt.
    const held = sql`d.next_attempt_at = v.lease_until`;
    await tx.execute(sql`
      update webhook_deliveries as d
      set attempts = d.attempts + 1,
          run_attempts = case when ${held} then v.run_attempts else d.run_attempts end,
          status = case when ${held} then v.status else d.status end,
          next_attempt_at = case when ${held} then v.next_attempt_at else d.next_attempt_at end,
          updated_at = ${now.toISOString()}::timestamptz
      from ${jsonRecords(
        'v',
        {
          id: 'text',
          lease_until: 'timestamptz',
          run_attempts: 'int',
          status: 'webhook_delivery_status',
          next_attempt_at: 'timestamptz',
        },
        moves,
      )}
      where d.id = v.id and d.status = 'pending'`);
    for (const { webhook, ok, gone, failed } of endpoints.values()) {
      // Only ever from on to off: an admin may have switched the endpoint off (or on again)
      // while the attempts were out, and that choice stands.
      if (gone) {
        await tx
          .update(webhooks)
          .set({ active: false, disabledReason: 'gone', updatedAt: now })
          .where(and(eq(webhooks.id, webhook.id), eq(webhooks.active, true)));
      } else if (ok) {
        if (webhook.failingSince) {
          await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, webhook.id));
        }
      } else if (failed) {
        // As text with a cast: a Date inside raw SQL is not serialised by every driver.
        const at = sql`${now.toISOString()}::timestamptz`;
        const disableBefore = sql`${new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString()}::timestamptz`;
        await tx
          .update(webhooks)
          .set({
            failingSince: sql`coalesce(${webhooks.failingSince}, ${at})`,
            active: sql`${webhooks.active} and not (${webhooks.failingSince} is not null and ${webhooks.failingSince} <= ${disableBefore})`,
            disabledReason: sql`case when ${webhooks.active} and ${webhooks.failingSince} <= ${disableBefore} then 'failing'::webhook_disabled_reason else ${webhooks.disabledReason} end`,
          })
          .where(eq(webhooks.id, webhook.id));
      }
    }
  });
}

/**
 * Whether more may be due after a batch: a full batch, or an account that took a whole share
 * (at least `perAccount`; a short batch of shares is not the end of what is due). Otherwise
 * the sweep ends, and what fell due during it waits for the next.
 */
export function mayHaveMoreDue(claimed: Claimed[], batch: number, perAccount: number) {
  if (claimed.length >= batch) return true;
  const perAccountCount = new Map<string, number>();
  for (const { delivery } of claimed) {
    const count = (perAccountCount.get(delivery.accountId) ?? 0) + 1;
    if (count >= perAccount) return true;
    perAccountCount.set(delivery.accountId, count);
  }
  return false;
}

/** Deliveries a sweep claims and sends at once. */
export const DELIVERY_BATCH = 50;
/** An account's least share of a batch (more when fewer accounts wait): accounts take turns. */
export const DELIVERY_PER_ACCOUNT = 10;

/**
 * One sweep to the end, as the tests drive delivery: what is due, a batch at a time, all of a
 * batch's attempts at once, until nothing is due or `budgetMs` has passed (one batch at
 * least). A batch's outcomes are written while the next batch goes out (one write in flight
 * at most): the lease keeps those deliveries from being claimed again meanwhile. Answers how
 * many attempts were made. The worker does not wait for a batch: it keeps attempts out side
 * by side, each logged as it ends (packages/jobs, webhook-pool.ts).
 */
export async function deliverDueWebhooks(opts: {
  db: Db;
  settings?: WebhookSettings;
  batch?: number;
  perAccount?: number;
  budgetMs?: number;
}): Promise<number> {
  const { db, batch = DELIVERY_BATCH, perAccount = DELIVERY_PER_ACCOUNT, budgetMs = 10_000 } = opts;
  const settings = opts.settings ?? webhookSettings();
  const until = Date.now() + budgetMs;
  let attempts = 0;
  let recording: Promise<void> = Promise.resolve();
  try {
    do {
      const claimed = await claimDueDeliveries(db, {
        limit: batch,
        perAccount,
        perEndpoint: batch,
        leaseSeconds: settings.leaseSeconds,
        now: new Date(),
      });
      if (claimed.length === 0) break;
      const outcomes = await Promise.all(claimed.map((item) => sendDelivery(item, settings)));
      await recording;
      recording = recordDeliveryOutcomes(db, outcomes, settings);
      // Awaited before the next write or on the way out, which rethrow a failure; until
      // then, a rejection must not count as unhandled.
      recording.catch(() => {});
      attempts += claimed.length;
      if (!mayHaveMoreDue(claimed, batch, perAccount)) break;
    } while (Date.now() < until);
  } finally {
    await recording;
  }
  return attempts;
}
