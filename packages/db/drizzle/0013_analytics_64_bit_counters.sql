-- 64-bit daily counts (a day's counter reached 2^31 - 1 and every later event of that type and
-- day failed), each table rewritten once: one ALTER TABLE per table, all its columns together.
-- The cap keeps every sum the stats read a safe JavaScript integer (schema/analytics.ts).
ALTER TABLE "analytics_daily"
  ALTER COLUMN "impression" SET DATA TYPE bigint,
  ALTER COLUMN "view" SET DATA TYPE bigint,
  ALTER COLUMN "click" SET DATA TYPE bigint,
  ALTER COLUMN "like" SET DATA TYPE bigint,
  ALTER COLUMN "share" SET DATA TYPE bigint,
  ALTER COLUMN "comment" SET DATA TYPE bigint,
  ALTER COLUMN "follow" SET DATA TYPE bigint,
  ADD CONSTRAINT "analytics_daily_cap" CHECK (greatest("analytics_daily"."impression", "analytics_daily"."view", "analytics_daily"."click", "analytics_daily"."like", "analytics_daily"."share", "analytics_daily"."comment", "analytics_daily"."follow") <= 1000000000000);--> statement-breakpoint
ALTER TABLE "analytics_daily_by_content"
  ALTER COLUMN "impression" SET DATA TYPE bigint,
  ALTER COLUMN "view" SET DATA TYPE bigint,
  ALTER COLUMN "click" SET DATA TYPE bigint,
  ALTER COLUMN "like" SET DATA TYPE bigint,
  ALTER COLUMN "share" SET DATA TYPE bigint,
  ALTER COLUMN "comment" SET DATA TYPE bigint,
  ALTER COLUMN "follow" SET DATA TYPE bigint,
  ADD CONSTRAINT "analytics_daily_by_content_cap" CHECK (greatest("analytics_daily_by_content"."impression", "analytics_daily_by_content"."view", "analytics_daily_by_content"."click", "analytics_daily_by_content"."like", "analytics_daily_by_content"."share", "analytics_daily_by_content"."comment", "analytics_daily_by_content"."follow") <= 1000000000000);--> statement-breakpoint
ALTER TABLE "analytics_daily_by_platform"
  ALTER COLUMN "impression" SET DATA TYPE bigint,
  ALTER COLUMN "view" SET DATA TYPE bigint,
  ALTER COLUMN "click" SET DATA TYPE bigint,
  ALTER COLUMN "like" SET DATA TYPE bigint,
  ALTER COLUMN "share" SET DATA TYPE bigint,
  ALTER COLUMN "comment" SET DATA TYPE bigint,
  ALTER COLUMN "follow" SET DATA TYPE bigint,
  ADD CONSTRAINT "analytics_daily_by_platform_cap" CHECK (greatest("analytics_daily_by_platform"."impression", "analytics_daily_by_platform"."view", "analytics_daily_by_platform"."click", "analytics_daily_by_platform"."like", "analytics_daily_by_platform"."share", "analytics_daily_by_platform"."comment", "analytics_daily_by_platform"."follow") <= 1000000000000);--> statement-breakpoint
ALTER TABLE "tracked_events" ALTER COLUMN "count" SET DATA TYPE bigint;
