import type { Metadata } from 'next';
import Link from 'next/link';
import { ConfirmAction } from '~/components/confirm-action';
import { DataTable } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { envelopePage } from '~/components/pagination';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { deleteWebhook } from './actions';
import { WebhookDialog } from './webhook-dialog';
import { eventList, WebhookState } from './webhook-state';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Webhooks' };

const PER_PAGE = 20;

export default async function WebhooksPage(props: { searchParams: Promise<SearchParams> }) {
  const { page } = parseSearch(await props.searchParams, { page: searchField.page });
  const me = await requirePrincipal('/dashboard/webhooks');
  const caller = await dashboardCaller('/dashboard/webhooks');
  const list = await caller.webhooks.list({ page, limit: PER_PAGE });
  // Changing webhooks is for admins (the procedures refuse anyone else): no control for others.
  const admin = me.role === 'admin';
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p className="lead">
            Endpoints that receive this account&apos;s events as they happen.
            {!admin && ' Only admins can add or change them.'}
          </p>
        </div>
        {admin && <WebhookDialog />}
      </div>
      <section className="panel">
        <DataTable
          label="Webhooks"
          rows={list.data}
          rowKey={(webhook) => webhook.id}
          empty={
            <EmptyState title="No webhooks yet">
              {admin
                ? 'Create one to receive events such as post.published.'
                : 'An admin can create one.'}
            </EmptyState>
          }
          columns={[
            {
              header: 'Endpoint',
              className: 'url',
              cell: (webhook) => (
                <>
                  <Link href={`/dashboard/webhooks/${webhook.id}`}>{webhook.url}</Link>
                  {webhook.description && <div className="muted small">{webhook.description}</div>}
                </>
              ),
            },
            { header: 'Events', cell: (webhook) => eventList(webhook.events) },
            { header: 'State', cell: (webhook) => <WebhookState webhook={webhook} /> },
            admin && {
              header: 'Actions',
              hideHeader: true,
              className: 'actions',
              cell: (webhook) => (
                <>
                  <WebhookDialog webhook={webhook} />
                  <ConfirmAction
                    button="Delete"
                    label={`Delete the webhook to ${webhook.url}`}
                    title="Delete this webhook?"
                    description={`${webhook.url} receives no more events, and its delivery log is deleted. This cannot be undone.`}
                    confirm="Delete webhook"
                    action={deleteWebhook}
                    values={{ id: webhook.id, url: webhook.url }}
                  />
                </>
              ),
            },
          ]}
          pagination={{
            at: envelopePage(list.meta.pagination),
            href: (p) => `/dashboard/webhooks?page=${p}`,
          }}
        />
      </section>
    </>
  );
}
