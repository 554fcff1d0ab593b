ALTER TYPE "public"."post_status" ADD VALUE 'pending_approval' BEFORE 'scheduled';--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "rejection_comment" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "rejected_by" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "rejected_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;