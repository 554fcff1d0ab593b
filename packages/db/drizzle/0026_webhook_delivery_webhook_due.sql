-- A webhook worker's claim reads each endpoint's due deliveries, as many as the endpoint may
-- still take (docs/webhooks.md, Delivery), where it read each account's: the account's index
-- has no reader left.
DROP INDEX "webhook_deliveries_account_due_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_due_idx" ON "webhook_deliveries" USING btree ("webhook_id","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';
