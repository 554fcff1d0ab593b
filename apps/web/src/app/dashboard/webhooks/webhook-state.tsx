import type { Webhook } from '@chorus/validators';

/** Why the service turned an endpoint off (docs/webhooks.md). */
const REASONS: Record<NonNullable<Webhook['disabledReason']>, string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery failed for 5 days',
};

/** Active, or disabled and why. */
export function WebhookState({ webhook }: { webhook: Webhook }) {
  if (webhook.active) return <span className="badge on">Active</span>;
  return (
    <span>
      <span className="badge off">Disabled</span>
      <span className="muted small">
        {' '}
        {webhook.disabledReason ? `by Chorus: ${REASONS[webhook.disabledReason]}` : 'by an admin'}
      </span>
    </span>
  );
}

/** The subscribed event types, `*` said in words. */
export const eventList = (events: string[]) =>
  events.includes('*') ? 'Every event' : events.join(', ');
