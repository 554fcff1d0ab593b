-- Accounts take turns in the webhook workers' batches (docs/webhooks.md, Delivery): each
-- account's due deliveries, oldest first, are read from this index.
CREATE INDEX "webhook_deliveries_account_due_idx" ON "webhook_deliveries" USING btree ("account_id","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';
