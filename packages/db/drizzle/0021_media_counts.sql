CREATE TABLE "media_counts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_counts" ADD CONSTRAINT "media_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The kept counts, as migration 0020 keeps the posts' (docs/posts-and-scheduler.md#the-lists-total):
-- a statement's records in or out, per account, in key order; an account being deleted takes
-- its count with it. A record never changes account, so updates count nothing.
CREATE FUNCTION "count_media"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
  INSERT INTO "media_counts" ("account_id", "count")
  SELECT c.account_id, (1 * count(*))::int FROM new_media c
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id ORDER BY c.account_id
  ON CONFLICT ("account_id") DO UPDATE SET "count" = "media_counts"."count" + excluded."count";
  ELSE
  INSERT INTO "media_counts" ("account_id", "count")
  SELECT c.account_id, (-1 * count(*))::int FROM old_media c
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id ORDER BY c.account_id
  ON CONFLICT ("account_id") DO UPDATE SET "count" = "media_counts"."count" + excluded."count";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "media_count_insert" AFTER INSERT ON "media" REFERENCING NEW TABLE AS new_media FOR EACH STATEMENT EXECUTE FUNCTION "count_media"();--> statement-breakpoint
CREATE TRIGGER "media_count_delete" AFTER DELETE ON "media" REFERENCING OLD TABLE AS old_media FOR EACH STATEMENT EXECUTE FUNCTION "count_media"();--> statement-breakpoint
INSERT INTO "media_counts" ("account_id", "count")
SELECT "account_id", count(*) FROM "media" GROUP BY "account_id";
