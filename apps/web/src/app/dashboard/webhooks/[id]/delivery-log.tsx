import type { WebhookDelivery } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { DataTable, type DataTableProps } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { utc } from '~/components/format';
import { retryDelivery } from '../actions';

const STATUS_BADGE: Record<WebhookDelivery['status'], string> = {
  succeeded: 'badge on',
  pending: 'badge',
  failed: 'badge off',
};

type Props = {
  webhookId: string;
  deliveries: WebhookDelivery[];
  /** An admin, on an endpoint that is switched on: a switched-off one is sent nothing. */
  canRetry: boolean;
  pagination: DataTableProps<WebhookDelivery>['pagination'];
};

const lastAttempt = (delivery: WebhookDelivery) => delivery.attempts.at(-1);

/** Deliveries newest first, each with its latest attempt; admins may send one again. */
export function DeliveryLog({ webhookId, deliveries, canRetry, pagination }: Props) {
  return (
    <DataTable
      label="Deliveries"
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
      empty={
        <EmptyState title="No deliveries yet">
          {canRetry
            ? 'Send a test event to see one arrive.'
            : 'Events this webhook receives show here.'}
        </EmptyState>
      }
      columns={[
        {
          header: 'Event',
          cell: (delivery) => (
            <>
              <code>{delivery.eventType}</code>
              <div className="muted small">
                <time dateTime={delivery.createdAt}>{utc(delivery.createdAt)}</time>
              </div>
            </>
          ),
        },
        {
          header: 'Status',
          cell: (delivery) => {
            const tries = delivery.attempts.length;
            return (
              <>
                <span className={STATUS_BADGE[delivery.status]}>{delivery.status}</span>
                <div className="muted small">
                  {tries} attempt{tries === 1 ? '' : 's'}
                </div>
              </>
            );
          },
        },
        {
          header: 'Response',
          cell: (delivery) => {
            const last = lastAttempt(delivery);
            return last ? (last.statusCode ?? last.error ?? '—') : '—';
          },
        },
        {
          header: 'Duration',
          cell: (delivery) => {
            const last = lastAttempt(delivery);
            return last ? `${last.durationMs} ms` : '—';
          },
        },
        {
          header: 'Response excerpt',
          className: 'excerpt',
          cell: (delivery) => {
            const excerpt = lastAttempt(delivery)?.responseExcerpt;
            return excerpt ? <code>{excerpt}</code> : '—';
          },
        },
        {
          header: 'Next retry',
          cell: (delivery) => (delivery.nextAttemptAt ? utc(delivery.nextAttemptAt) : '—'),
        },
        canRetry && {
          header: 'Actions',
          hideHeader: true,
          className: 'actions',
          cell: (delivery) => (
            <ActionButton
              action={retryDelivery}
              values={{ id: webhookId, deliveryId: delivery.id }}
              label={`Retry the ${delivery.eventType} delivery of ${utc(delivery.createdAt)}`}
            >
              Retry
            </ActionButton>
          ),
        },
      ]}
      pagination={pagination}
    />
  );
}
