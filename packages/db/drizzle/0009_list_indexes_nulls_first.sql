-- List indexes in the order the lists read them: ORDER BY … DESC means NULLS FIRST, and an
-- index in DESC NULLS LAST (drizzle-kit's `.desc()`) cannot give that order, so every page
-- sorted the whole account (found on users in 0008).
DROP INDEX "api_keys_account_idx";--> statement-breakpoint
DROP INDEX "integration_connections_account_idx";--> statement-breakpoint
DROP INDEX "oauth_clients_account_idx";--> statement-breakpoint
DROP INDEX "media_account_created_idx";--> statement-breakpoint
DROP INDEX "posts_account_created_idx";--> statement-breakpoint
DROP INDEX "events_account_created_idx";--> statement-breakpoint
DROP INDEX "tracked_events_account_created_idx";--> statement-breakpoint
DROP INDEX "tracked_events_content_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_webhook_created_idx";--> statement-breakpoint
DROP INDEX "webhooks_account_created_idx";--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "integration_connections_account_idx" ON "integration_connections" USING btree ("account_id","connected_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "oauth_clients_account_idx" ON "oauth_clients" USING btree ("account_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "media_account_created_idx" ON "media" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "posts_account_created_idx" ON "posts" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "events_account_created_idx" ON "events" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tracked_events_account_created_idx" ON "tracked_events" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tracked_events_content_idx" ON "tracked_events" USING btree ("account_id","content_id","created_at" DESC NULLS FIRST) WHERE "tracked_events"."content_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_created_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhooks_account_created_idx" ON "webhooks" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);