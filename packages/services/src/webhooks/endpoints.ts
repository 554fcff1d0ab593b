import type { Principal } from '@chorus/auth';
import { and, asRead, count, eq, sql, webhooks, type Db } from '@chorus/db';
import type { CreateWebhookInput, UpdateWebhookInput } from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { newId } from '../shared/ids';
import { sameList } from '../shared/lists';
import { readTablePage, type PageRequest } from '../shared/pagination';
import { sealSecret, toWebhook, webhookFields, type WebhookRow } from './records';
import { webhookSettings } from './settings';
import { newWebhookSecret } from './signing';
import { assertTargetAllowed } from './targets';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const mine = (principal: Principal, id: string) =>
  and(eq(webhooks.id, id), eq(webhooks.accountId, principal.accountId));

export async function findWebhookRow(db: Db, principal: Principal, id: string) {
  const [row] = await db.select().from(webhooks).where(mine(principal, id));
  if (!row) throw notFound('Webhook');
  return row;
}

export async function listWebhooks(opts: { db: Db; principal: Principal; page: PageRequest }) {
  const { db, principal, page } = opts;
  const where = eq(webhooks.accountId, principal.accountId);
  return readTablePage({
    db,
    request: page,
    order: {
      table: webhooks,
      id: webhooks.id,
      by: webhooks.createdAt,
      direction: 'desc',
      scope: where,
    },
    where,
    fields: webhookFields,
    items: (rows) => rows.map(toWebhook),
  });
}

export async function getWebhook(opts: { db: Db; principal: Principal; id: string }) {
  return toWebhook(asRead(await findWebhookRow(opts.db, opts.principal, opts.id)));
}

/**
 * Creates an endpoint; its secret is in this answer only. An account holds at most
 * `maxPerAccount` endpoints (409 `webhook_limit_reached` beyond): every event fans out to each,
 * and `webhooks.test` runs one delivery per call. Counted under a per-account lock, so
 * concurrent creates cannot pass the limit together.
 */
export async function createWebhook(opts: {
  db: Db;
  principal: Principal;
  input: CreateWebhookInput;
}) {
  const { db, principal, input } = opts;
  const settings = webhookSettings();
  await assertTargetAllowed(input.url, settings.allowPrivateTargets);
  const id = newId('whk');
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${principal.accountId}`}))`,
    );
    const [held] = await tx
      .select({ total: count() })
      .from(webhooks)
      .where(eq(webhooks.accountId, principal.accountId));
    if ((held?.total ?? 0) >= settings.maxPerAccount) {
      throw new AppError(
        'webhook_limit_reached',
        `This account already has ${settings.maxPerAccount} webhooks, the most it may have: delete one first.`,
        { limit: settings.maxPerAccount },
      );
    }
    const [row] = await tx
      .insert(webhooks)
      .values({
        id,
        accountId: principal.accountId,
        url: input.url,
        events: input.events,
        description: input.description,
        active: input.active,
        secret: sealSecret({ accountId: principal.accountId, id }, secret),
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return { ...toWebhook(asRead(row)), secret };
  });
}

/** Whether an update asks for anything the endpoint does not have already. */
function changes(row: WebhookRow, input: UpdateWebhookInput) {
  const differs = <T>(asked: T | undefined, has: T) => asked !== undefined && asked !== has;
  return (
    differs(input.url, row.url) ||
    differs(input.description, row.description) ||
    differs(input.active, row.active) ||
    (input.events !== undefined && !sameList(input.events, row.events))
  );
}

/**
 * A partial update; `active: true` re-enables an endpoint the service disabled. One that
 * changes nothing (the endpoint sent back as it is) writes nothing: `updatedAt` stays.
 */
export async function updateWebhook(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: UpdateWebhookInput;
}) {
  const { db, principal, id, input } = opts;
  const current = await findWebhookRow(db, principal, id);
  if (!changes(current, input)) return toWebhook(asRead(current));
  if (input.url !== undefined) {
    await assertTargetAllowed(input.url, webhookSettings().allowPrivateTargets);
  }
  const reEnable = input.active === true && { disabledReason: null, failingSince: null };
  const [row] = await db
    .update(webhooks)
    .set({
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.active !== undefined && { active: input.active, disabledReason: null }),
      ...reEnable,
      updatedAt: new Date(),
    })
    .where(mine(principal, id))
    .returning();
  if (!row) throw notFound('Webhook');
  return toWebhook(asRead(row));
}

/** Deletes an endpoint with its deliveries; nothing more is sent to it. */
export async function deleteWebhook(opts: { db: Db; principal: Principal; id: string }) {
  const [row] = await opts.db
    .delete(webhooks)
    .where(mine(opts.principal, opts.id))
    .returning({ id: webhooks.id });
  if (!row) throw notFound('Webhook');
}

/**
 * A new secret, answered once; the previous one keeps signing (beside it) for 24 hours, so a
 * receiver can switch without missing a delivery.
 */
export async function rotateWebhookSecret(opts: { db: Db; principal: Principal; id: string }) {
  const { db, principal, id } = opts;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(webhooks).where(mine(principal, id)).for('update');
    if (!current) throw notFound('Webhook');
    const secret = newWebhookSecret();
    const now = new Date();
    const [row] = await tx
      .update(webhooks)
      .set({
        secret: sealSecret(current, secret),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: now,
      })
      .where(eq(webhooks.id, id))
      .returning();
    if (!row) throw notFound('Webhook');
    return { ...toWebhook(asRead(row)), secret };
  });
}
