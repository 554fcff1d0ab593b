import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionButton } from '~/components/action-button';
import { AutoRefresh } from '~/components/auto-refresh';
import { ConfirmAction } from '~/components/confirm-action';
import { utc } from '~/components/format';
import { envelopePage } from '~/components/pagination';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { deleteWebhook, enableWebhook, rotateSecret, sendTestEvent } from '../actions';
import { WebhookDialog } from '../webhook-dialog';
import { eventList, WebhookState } from '../webhook-state';
import { DeliveryLog } from './delivery-log';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Webhook' };

const PER_PAGE = 20;
type Params = Promise<{ id: string }>;

export default async function WebhookPage(props: {
  params: Params;
  searchParams: Promise<SearchParams>;
}) {
  const { id } = await props.params;
  const { page } = parseSearch(await props.searchParams, { page: searchField.page });
  const path = `/dashboard/webhooks/${id}`;
  const me = await requirePrincipal(path);
  const caller = await dashboardCaller(path);
  // One query after another: the embedded database's socket refuses pipelined statements.
  const found = await caller.webhooks.get({ id }).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'NOT_FOUND') notFound();
    throw error;
  });
  const webhook = found.data;
  const log = await caller.webhooks.deliveries({ id, page, limit: PER_PAGE });
  // Changing webhooks is for admins (the procedures refuse anyone else): no control for others.
  const admin = me.role === 'admin';
  // A delivery due within the minute is being sent: show its outcome as soon as it lands.
  const soon = Date.now() + 60_000;
  const sending = log.data.some(
    (d) => d.status === 'pending' && (!d.nextAttemptAt || Date.parse(d.nextAttemptAt) <= soon),
  );
  const values = { id: webhook.id, url: webhook.url };
  return (
    <>
      <p className="small">
        <Link href="/dashboard/webhooks">← Webhooks</Link>
      </p>
      <h1>Webhook</h1>
      <p className="lead url">
        <code>{webhook.url}</code>
      </p>
      <section className="panel">
        <dl className="facts">
          <dt>State</dt>
          <dd>
            <WebhookState webhook={webhook} />
          </dd>
          <dt>Events</dt>
          <dd>{eventList(webhook.events)}</dd>
          <dt>Description</dt>
          <dd>{webhook.description || '—'}</dd>
          <dt>Created</dt>
          <dd>{utc(webhook.createdAt)}</dd>
        </dl>
        {admin && (
          <div className="actions">
            {!webhook.active && (
              <ActionButton action={enableWebhook} values={values} className="primary">
                Re-enable
              </ActionButton>
            )}
            {/* A switched-off endpoint is sent nothing (409 webhook_inactive). */}
            {webhook.active && (
              <ActionButton action={sendTestEvent} values={values}>
                Send test event
              </ActionButton>
            )}
            <WebhookDialog webhook={webhook} />
            <ConfirmAction
              button="Rotate secret"
              label="Rotate secret"
              title="Rotate the signing secret?"
              description="For 24 hours deliveries carry two signatures, with the new secret and the current one, so the receiver can switch without missing any."
              confirm="Rotate secret"
              action={rotateSecret}
              values={values}
              secretLabel="New signing secret"
            />
            <ConfirmAction
              button="Delete"
              label="Delete this webhook"
              title="Delete this webhook?"
              description={`${webhook.url} receives no more events, and its delivery log is deleted. This cannot be undone.`}
              confirm="Delete webhook"
              action={deleteWebhook}
              values={values}
              after="/dashboard/webhooks"
            />
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby="delivery-log">
        <h2 id="delivery-log">Delivery log</h2>
        {sending && <AutoRefresh seconds={2} />}
        <DeliveryLog
          webhookId={webhook.id}
          deliveries={log.data}
          canRetry={admin && webhook.active}
          pagination={{ at: envelopePage(log.meta.pagination), href: (p) => `${path}?page=${p}` }}
        />
      </section>
    </>
  );
}
