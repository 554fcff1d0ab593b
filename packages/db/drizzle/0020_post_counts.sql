CREATE TABLE "post_counts" (
	"account_id" text NOT NULL,
	"status" "post_status" NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "post_counts_account_id_status_pk" PRIMARY KEY("account_id","status")
);
--> statement-breakpoint
CREATE TABLE "post_tag_counts" (
	"account_id" text NOT NULL,
	"status" "post_status" NOT NULL,
	"tag" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "post_tag_counts_account_id_tag_status_pk" PRIMARY KEY("account_id","tag","status")
);
--> statement-breakpoint
ALTER TABLE "post_counts" ADD CONSTRAINT "post_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_tag_counts" ADD CONSTRAINT "post_tag_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_account_status_created_idx" ON "posts" USING btree ("account_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- The kept counts (docs/posts-and-scheduler.md#the-lists-total): one trigger per statement
-- kind, each adding the statement's changes (+1 per row in, -1 per row out), summed per
-- (account, status) and (account, tag, status), in key order so that concurrent writers lock
-- the count rows in one order; an update that leaves status and tags alone writes nothing.
-- An account being deleted takes its counts with it (the EXISTS skips its posts' cascade).
CREATE FUNCTION "count_posts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
  INSERT INTO "post_counts" ("account_id", "status", "count")
  SELECT c.account_id, c.status, sum(c.d)::int
  FROM (SELECT account_id, status, tags, 1 AS d FROM new_posts) c
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, c.status
  ON CONFLICT ("account_id", "status") DO UPDATE SET "count" = "post_counts"."count" + excluded."count";
  INSERT INTO "post_tag_counts" ("account_id", "status", "tag", "count")
  SELECT c.account_id, c.status, t.tag, sum(c.d)::int
  FROM (SELECT account_id, status, tags, 1 AS d FROM new_posts) c CROSS JOIN LATERAL (SELECT DISTINCT u.tag FROM unnest(c.tags) u(tag)) t
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, t.tag, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, t.tag, c.status
  ON CONFLICT ("account_id", "tag", "status") DO UPDATE SET "count" = "post_tag_counts"."count" + excluded."count";
  ELSIF TG_OP = 'DELETE' THEN
  INSERT INTO "post_counts" ("account_id", "status", "count")
  SELECT c.account_id, c.status, sum(c.d)::int
  FROM (SELECT account_id, status, tags, -1 AS d FROM old_posts) c
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, c.status
  ON CONFLICT ("account_id", "status") DO UPDATE SET "count" = "post_counts"."count" + excluded."count";
  INSERT INTO "post_tag_counts" ("account_id", "status", "tag", "count")
  SELECT c.account_id, c.status, t.tag, sum(c.d)::int
  FROM (SELECT account_id, status, tags, -1 AS d FROM old_posts) c CROSS JOIN LATERAL (SELECT DISTINCT u.tag FROM unnest(c.tags) u(tag)) t
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, t.tag, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, t.tag, c.status
  ON CONFLICT ("account_id", "tag", "status") DO UPDATE SET "count" = "post_tag_counts"."count" + excluded."count";
  ELSE
  INSERT INTO "post_counts" ("account_id", "status", "count")
  SELECT c.account_id, c.status, sum(c.d)::int
  FROM (SELECT account_id, status, tags, 1 AS d FROM new_posts UNION ALL SELECT account_id, status, tags, -1 AS d FROM old_posts) c
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, c.status
  ON CONFLICT ("account_id", "status") DO UPDATE SET "count" = "post_counts"."count" + excluded."count";
  INSERT INTO "post_tag_counts" ("account_id", "status", "tag", "count")
  SELECT c.account_id, c.status, t.tag, sum(c.d)::int
  FROM (SELECT account_id, status, tags, 1 AS d FROM new_posts UNION ALL SELECT account_id, status, tags, -1 AS d FROM old_posts) c CROSS JOIN LATERAL (SELECT DISTINCT u.tag FROM unnest(c.tags) u(tag)) t
  WHERE EXISTS (SELECT 1 FROM "accounts" a WHERE a.id = c.account_id)
  GROUP BY c.account_id, t.tag, c.status HAVING sum(c.d) <> 0
  ORDER BY c.account_id, t.tag, c.status
  ON CONFLICT ("account_id", "tag", "status") DO UPDATE SET "count" = "post_tag_counts"."count" + excluded."count";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "posts_count_insert" AFTER INSERT ON "posts" REFERENCING NEW TABLE AS new_posts FOR EACH STATEMENT EXECUTE FUNCTION "count_posts"();--> statement-breakpoint
CREATE TRIGGER "posts_count_update" AFTER UPDATE ON "posts" REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts FOR EACH STATEMENT EXECUTE FUNCTION "count_posts"();--> statement-breakpoint
CREATE TRIGGER "posts_count_delete" AFTER DELETE ON "posts" REFERENCING OLD TABLE AS old_posts FOR EACH STATEMENT EXECUTE FUNCTION "count_posts"();--> statement-breakpoint
-- Backfill: the posts already there (from here on, the triggers keep the counts).
INSERT INTO "post_counts" ("account_id", "status", "count")
SELECT "account_id", "status", count(*) FROM "posts" GROUP BY "account_id", "status";--> statement-breakpoint
INSERT INTO "post_tag_counts" ("account_id", "status", "tag", "count")
SELECT p."account_id", p."status", t.tag, count(*)
FROM "posts" p CROSS JOIN LATERAL (SELECT DISTINCT u.tag FROM unnest(p."tags") u(tag)) t
GROUP BY p."account_id", t.tag, p."status";
