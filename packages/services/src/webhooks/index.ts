export { claimDueDeliveries, type Claimed as ClaimedDelivery } from './claim';
export {
  DELIVERY_BATCH,
  DELIVERY_PER_ACCOUNT,
  deliverDueWebhooks,
  mayHaveMoreDue,
  recordDeliveryOutcomes,
  sendDelivery,
  type DeliveryOutcome,
} from './deliver';
export { listDeliveries, retryDelivery, sendTestEvent } from './deliveries';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from './endpoints';
export { ATTEMPT_TIMEOUT_MS } from './send';
export { webhookSettings, type WebhookSettings } from './settings';
