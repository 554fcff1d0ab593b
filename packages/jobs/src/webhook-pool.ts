import type { Db } from '@chorus/db';
import {
  claimDueDeliveries,
  DELIVERY_PER_ACCOUNT,
  mayHaveMoreDue,
  recordDeliveryOutcomes,
  sendDelivery,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type WebhookSettings,
} from '@chorus/services';
import { coalesce } from './coalesce';

export interface DeliveryPoolOptions {
  db: Db;
  settings: WebhookSettings;
  /** Attempts this worker has out at once. */
  slots: number;
  /** Attempts this worker has out at once to one endpoint. */
  perEndpoint: number;
  onError(error: Error): void;
}

export interface DeliveryPool {
  /** Claims what is due for the free slots and sends it; resolves once claimed, not sent. */
  fill(): Promise<void>;
  /** Claims no more, waits (at most `timeoutMs`) for the attempts out, and logs them. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * A worker's webhook attempts (docs/webhooks.md, Delivery): up to `slots` out at once, at most
 * `perEndpoint` of them to one endpoint, each slot freed, and its outcome logged, as its own
 * attempt ends. A slow endpoint holds its own slots and nothing else, where a batch sent
 * together waited for its slowest attempt before it was logged and before the next claim.
 *
 * It claims when asked (the sweeps of the lanes), and again as attempts end while more may be
 * due: after a claim that found more than it took, or when an endpoint at its limit frees a
 * slot. One claim and one write are out at a time; the outcomes that ended meanwhile are
 * written together. That a delivery goes out once per attempt rests on its lease in the
 * database, not on this.
 */
export function startDeliveryPool(options: DeliveryPoolOptions): DeliveryPool {
  const { db, settings, slots, perEndpoint, onError } = options;
  const inFlight = new Map<string, number>();
  let out = 0;
  let stopped = false;
  /**
   * More may be due: the last fill took deliveries. An endpoint is given only its room, so a
   * backlog to it waits for the slots that end next: each claims again, until one finds none.
   */
  let backlog = false;
  let ended: DeliveryOutcome[] = [];
  /** Ended and not yet logged: the last write on the way out waits for these. */
  let unwritten = 0;
  let drained: (() => void) | undefined;
  /** Stopped and done: an attempt ending later is not logged (its lease sends it again). */
  let closed = false;

  const write = coalesce(async () => {
    const outcomes = ended;
    ended = [];
    try {
      // A failed write leaves its deliveries leased: they go out again when it ends.
      await recordDeliveryOutcomes(db, outcomes, settings);
    } finally {
      unwritten -= outcomes.length;
    }
  }, onError);

  const fill = async () => {
    let took = false;
    while (!stopped && out < slots) {
      const limit = slots - out;
      const claimed = await claimDueDeliveries(db, {
        limit,
        perAccount: DELIVERY_PER_ACCOUNT,
        perEndpoint,
        inFlight,
        leaseSeconds: settings.leaseSeconds,
        now: new Date(),
      });
      for (const item of claimed) send(item);
      took ||= claimed.length > 0;
      if (!mayHaveMoreDue(claimed, limit, DELIVERY_PER_ACCOUNT)) break;
    }
    backlog = took;
  };
  const filling = coalesce(fill, onError);

  const send = (item: ClaimedDelivery) => {
    const webhookId = item.webhook.id;
    inFlight.set(webhookId, (inFlight.get(webhookId) ?? 0) + 1);
    out += 1;
    void sendDelivery(item, settings)
      .then((outcome) => {
        if (closed) return;
        const endpointOut = inFlight.get(webhookId) ?? 1;
        if (endpointOut > 1) inFlight.set(webhookId, endpointOut - 1);
        else inFlight.delete(webhookId);
        out -= 1;
        ended.push(outcome);
        unwritten += 1;
        write();
        if (out === 0) drained?.();
        // An endpoint that was full may have deliveries due that waited for this slot.
        if (!stopped && (backlog || endpointOut >= perEndpoint)) filling();
      })
      .catch(onError);
  };

  return {
    fill: async () => {
      if (stopped) return;
      filling();
      await filling.idle();
    },
    stop: async (timeoutMs) => {
      stopped = true;
      await filling.idle();
      if (out > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });
      }
      // What did not end in time stays leased, as a worker that died leaves it.
      while (unwritten > 0) {
        write();
        await write.idle();
      }
      closed = true;
    },
  };
}
