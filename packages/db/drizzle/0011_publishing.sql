CREATE TYPE "public"."channel_kind" AS ENUM('profile', 'page', 'organization', 'account');--> statement-breakpoint
CREATE TYPE "public"."target_status" AS ENUM('pending', 'publishing', 'published', 'failed', 'unconfirmed');--> statement-breakpoint
ALTER TYPE "public"."post_status" ADD VALUE 'publishing' BEFORE 'published';--> statement-breakpoint
ALTER TYPE "public"."post_status" ADD VALUE 'failed' BEFORE 'archived';--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"external_id" text NOT NULL,
	"kind" "channel_kind" NOT NULL,
	"name" text NOT NULL,
	"handle" text NOT NULL,
	"avatar_url" text,
	"credentials" text,
	"limits" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_targets" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"account_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"position" integer NOT NULL,
	"content" text,
	"media_ids" text[],
	"first_comment" text,
	"thread" jsonb,
	"status" "target_status" DEFAULT 'pending' NOT NULL,
	"external_id" text,
	"url" text,
	"published_at" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"first_attempt_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_connections" ADD COLUMN "status" text DEFAULT 'connected' NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_account_id_integration_id_integration_connections_account_id_integration_id_fk" FOREIGN KEY ("account_id","integration_id") REFERENCES "public"."integration_connections"("account_id","integration_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_targets" ADD CONSTRAINT "post_targets_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_targets" ADD CONSTRAINT "post_targets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_connection_external_idx" ON "channels" USING btree ("account_id","integration_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "post_targets_post_position_idx" ON "post_targets" USING btree ("post_id","position");--> statement-breakpoint
CREATE INDEX "post_targets_channel_idx" ON "post_targets" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "post_targets_due_idx" ON "post_targets" USING btree ("next_attempt_at") WHERE "post_targets"."status" = 'pending';