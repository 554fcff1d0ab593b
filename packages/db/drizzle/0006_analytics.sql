CREATE TYPE "public"."tracked_event_type" AS ENUM('impression', 'view', 'click', 'like', 'share', 'comment', 'follow');--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"content_id" text,
	"integration_id" text,
	"impression" integer DEFAULT 0 NOT NULL,
	"view" integer DEFAULT 0 NOT NULL,
	"click" integer DEFAULT 0 NOT NULL,
	"like" integer DEFAULT 0 NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"comment" integer DEFAULT 0 NOT NULL,
	"follow" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_key" UNIQUE NULLS NOT DISTINCT("account_id","content_id","day","integration_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_by_content" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"content_id" text NOT NULL,
	"impression" integer DEFAULT 0 NOT NULL,
	"view" integer DEFAULT 0 NOT NULL,
	"click" integer DEFAULT 0 NOT NULL,
	"like" integer DEFAULT 0 NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"comment" integer DEFAULT 0 NOT NULL,
	"follow" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_by_content_key" UNIQUE("account_id","day","content_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_by_platform" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"integration_id" text,
	"impression" integer DEFAULT 0 NOT NULL,
	"view" integer DEFAULT 0 NOT NULL,
	"click" integer DEFAULT 0 NOT NULL,
	"like" integer DEFAULT 0 NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"comment" integer DEFAULT 0 NOT NULL,
	"follow" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_by_platform_key" UNIQUE NULLS NOT DISTINCT("account_id","day","integration_id")
);
--> statement-breakpoint
CREATE TABLE "tracked_events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" "tracked_event_type" NOT NULL,
	"content_id" text,
	"integration_id" text,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"properties" jsonb NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"sync_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_by_content" ADD CONSTRAINT "analytics_daily_by_content_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_by_platform" ADD CONSTRAINT "analytics_daily_by_platform_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_events" ADD CONSTRAINT "tracked_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracked_events_account_created_idx" ON "tracked_events" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tracked_events_content_idx" ON "tracked_events" USING btree ("account_id","content_id","created_at" DESC NULLS LAST) WHERE "tracked_events"."content_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tracked_events_sync_key" ON "tracked_events" USING btree ("account_id","sync_key") WHERE "tracked_events"."sync_key" is not null;