import { eq, events, inArray, sql, webhookDeliveries, webhooks, type Db } from '@chorus/db';
import type { WebhookRow } from './records';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
/** A delivery this worker holds the lease of, with its endpoint and its body. */
export type Claimed = { delivery: DeliveryRow; webhook: WebhookRow; body: string };

/**
 * Takes up to `limit` due deliveries for this worker: their next attempt moves a lease ahead,
 * in one statement over rows no other worker holds (SKIP LOCKED), so two workers never take
 * the same delivery, and one that dies leaves its deliveries due again when the lease ends.
 * Accounts take turns: the accounts waiting longest first, each with its share of the batch
 * (at least `perAccount`), so one account's backlog (a burst of events, endpoints that time
 * out) cannot fill every batch and keep other accounts' deliveries waiting behind it, while a
 * lone busy account still fills whole batches. An endpoint gets at most `perEndpoint` less
 * what `inFlight` says this worker has out to it, so a slow endpoint's backlog cannot take
 * every slot of a worker (docs/webhooks.md, Delivery).
 */
export async function claimDueDeliveries(
  db: Db,
  opts: {
    limit: number;
    perAccount: number;
    perEndpoint: number;
    /** Attempts this worker has out, by webhook id. */
    inFlight?: ReadonlyMap<string, number>;
    leaseSeconds: number;
    now: Date;
  },
): Promise<Claimed[]> {
  const { limit, perAccount, perEndpoint, leaseSeconds, now } = opts;
  // As text with a cast: a Date inside raw SQL is not serialised by every driver.
  const at = sql`${now.toISOString()}::timestamptz`;
  // This worker's attempts out per endpoint, as one JSON parameter read once.
  const out = JSON.stringify(Object.fromEntries(opts.inFlight ?? []));
  const share = sql`greatest(${perAccount}, ceil(${limit}::numeric / a.accounts))`;
  const taken = sql`(select taken from busy where busy.webhook_id = w.id)`;
  const room = sql`greatest(0, ${perEndpoint} - coalesce(${taken}, 0))`;
  // Locked where they are read, an endpoint's from its own index, so that workers claiming
  // at once take different deliveries; at most the account's share of each endpoint, so that
  // few more are locked than taken.
  const due = sql`
    with busy as (
      select key as webhook_id, value::int as taken from jsonb_each_text(${out}::text::jsonb)
    )
    select d.id from (
      select account_id, min(next_attempt_at) as oldest, count(*) over () as accounts
      from webhook_deliveries
      where status = 'pending' and next_attempt_at <= ${at}
        and webhook_id not in (select webhook_id from busy where taken >= ${perEndpoint})
      group by account_id order by oldest limit ${limit}
    ) as a
    cross join lateral (
      select e.id, e.next_attempt_at from webhooks as w
      cross join lateral (
        select id, next_attempt_at from webhook_deliveries
        where webhook_id = w.id and status = 'pending' and next_attempt_at <= ${at}
        order by next_attempt_at
        limit least(${share}, ${room})
        for update skip locked
      ) as e
      where w.account_id = a.account_id
      order by e.next_attempt_at
      limit ${share}
    ) as d
    order by a.oldest, d.next_attempt_at
    limit ${limit}`;
  const claimed = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseSeconds * 1000) })
    .where(sql`${webhookDeliveries.id} in (${due})`)
    .returning();
  if (claimed.length === 0) return [];
  const rows = await db
    .select({ webhook: webhooks, payload: events.payload, deliveryId: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(
      inArray(
        webhookDeliveries.id,
        claimed.map((d) => d.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.deliveryId, row]));
  return claimed.flatMap((delivery): Claimed[] => {
    const row = byId.get(delivery.id);
    return row ? [{ delivery, webhook: row.webhook, body: JSON.stringify(row.payload) }] : [];
  });
}
