import type { WebhookDelivery } from '@chorus/validators';
import { ActionButton } from '~/components/action-button';
import { EmptyState } from '~/components/empty-state';
import { utc } from '~/components/format';
import { TableScroll } from '~/components/table-scroll';
import { retryDelivery } from '../actions';

const STATUS_BADGE: Record<WebhookDelivery['status'], string> = {
  succeeded: 'badge on',
  pending: 'badge',
  failed: 'badge off',
};

type Props = { webhookId: string; deliveries: WebhookDelivery[]; admin: boolean };

/** Deliveries newest first, each with its latest attempt; admins may send one again. */
export function DeliveryLog({ webhookId, deliveries, admin }: Props) {
  if (deliveries.length === 0) {
    return (
      <EmptyState title="No deliveries yet">
        {admin ? 'Send a test event to see one arrive.' : 'Events this webhook receives show here.'}
      </EmptyState>
    );
  }
  return (
    <TableScroll label="Deliveries">
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">Duration</th>
            <th scope="col">Response excerpt</th>
            <th scope="col">Next retry</th>
            {admin && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => {
            const last = delivery.attempts.at(-1);
            const tries = delivery.attempts.length;
            return (
              <tr key={delivery.id}>
                <td>
                  <code>{delivery.eventType}</code>
                  <div className="muted small">
                    <time dateTime={delivery.createdAt}>{utc(delivery.createdAt)}</time>
                  </div>
                </td>
                <td>
                  <span className={STATUS_BADGE[delivery.status]}>{delivery.status}</span>
                  <div className="muted small">
                    {tries} attempt{tries === 1 ? '' : 's'}
                  </div>
                </td>
                <td>{last ? (last.statusCode ?? last.error ?? '—') : '—'}</td>
                <td>{last ? `${last.durationMs} ms` : '—'}</td>
                <td className="excerpt">
                  {last?.responseExcerpt ? <code>{last.responseExcerpt}</code> : '—'}
                </td>
                <td>{delivery.nextAttemptAt ? utc(delivery.nextAttemptAt) : '—'}</td>
                {admin && (
                  <td className="actions">
                    <ActionButton
                      action={retryDelivery}
                      values={{ id: webhookId, deliveryId: delivery.id }}
                      label={`Retry the ${delivery.eventType} delivery of ${utc(delivery.createdAt)}`}
                    >
                      Retry
                    </ActionButton>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
