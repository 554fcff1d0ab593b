import Link from 'next/link';
import { ConfirmAction } from '~/components/confirm-action';
import { EmptyState } from '~/components/empty-state';
import { Pagination } from '~/components/pagination';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { deleteWebhook } from './actions';
import { WebhookDialog } from './webhook-dialog';
import { eventList, WebhookState } from './webhook-state';

export const dynamic = 'force-dynamic';

const PER_PAGE = 20;
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const me = await requirePrincipal('/dashboard/webhooks');
  const caller = await dashboardCaller('/dashboard/webhooks');
  const page = Math.max(1, Number.parseInt(String(params.page), 10) || 1);
  const list = await caller.webhooks.list({ page, limit: PER_PAGE });
  const { pagination } = list.meta;
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
        {list.data.length === 0 ? (
          <EmptyState title="No webhooks yet">
            {admin
              ? 'Create one to receive events such as post.published.'
              : 'An admin can create one.'}
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  {admin && (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {list.data.map((webhook) => (
                  <tr key={webhook.id}>
                    <td className="url">
                      <Link href={`/dashboard/webhooks/${webhook.id}`}>{webhook.url}</Link>
                      {webhook.description && (
                        <div className="muted small">{webhook.description}</div>
                      )}
                    </td>
                    <td>{eventList(webhook.events)}</td>
                    <td>
                      <WebhookState webhook={webhook} />
                    </td>
                    {admin && (
                      <td className="actions">
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
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={pagination.currentPage}
          pages={pagination.totalPages}
          total={pagination.total}
          href={(p) => `/dashboard/webhooks?page=${p}`}
        />
      </section>
    </>
  );
}
