export { DELIVERY_BATCH, deliverDueWebhooks } from './deliver';
export { listDeliveries, retryDelivery, sendTestEvent } from './deliveries';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from './endpoints';
export { webhookSettings } from './settings';
