CREATE TABLE "post_occurrences" (
	"post_id" text NOT NULL,
	"occurrence_at" timestamp (3) with time zone NOT NULL,
	"copy_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_occurrences_post_id_occurrence_at_pk" PRIMARY KEY("post_id","occurrence_at")
);
--> statement-breakpoint
DROP INDEX "posts_due_idx";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "recurrence" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "next_occurrence_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "recurrence_of" text;--> statement-breakpoint
ALTER TABLE "post_occurrences" ADD CONSTRAINT "post_occurrences_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_occurrences" ADD CONSTRAINT "post_occurrences_copy_id_posts_id_fk" FOREIGN KEY ("copy_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_recurrence_of_posts_id_fk" FOREIGN KEY ("recurrence_of") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_series_due_idx" ON "posts" USING btree ("next_occurrence_at") WHERE "posts"."status" = 'scheduled' and "posts"."next_occurrence_at" is not null;--> statement-breakpoint
CREATE INDEX "posts_recurrence_of_idx" ON "posts" USING btree ("recurrence_of") WHERE "posts"."recurrence_of" is not null;--> statement-breakpoint
CREATE INDEX "posts_due_idx" ON "posts" USING btree ("scheduled_at") WHERE "posts"."status" = 'scheduled' and "posts"."recurrence" is null;