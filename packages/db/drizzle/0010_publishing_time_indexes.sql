-- The posts list's scheduledFrom/To and publishedFrom/To (the calendar's visible range): without
-- these, a range on scheduled_at or published_at within one account read all of the account's
-- posts (posts_account_created_idx) or every account's scheduled posts (posts_due_idx).
CREATE INDEX "posts_account_scheduled_idx" ON "posts" USING btree ("account_id","scheduled_at","id");--> statement-breakpoint
CREATE INDEX "posts_account_published_idx" ON "posts" USING btree ("account_id","published_at") WHERE "posts"."published_at" is not null;
