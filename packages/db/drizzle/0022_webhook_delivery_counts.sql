CREATE TABLE "webhook_delivery_counts" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery_counts" ADD CONSTRAINT "webhook_delivery_counts_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The kept counts, as migration 0020 keeps the posts' (docs/posts-and-scheduler.md#the-lists-total):
-- a statement's deliveries in or out, per webhook, in key order; a webhook being deleted takes
-- its count with it. A delivery never changes webhook, so updates count nothing.
CREATE FUNCTION "count_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
  INSERT INTO "webhook_delivery_counts" ("webhook_id", "count")
  SELECT c.webhook_id, (1 * count(*))::int FROM new_deliveries c
  WHERE EXISTS (SELECT 1 FROM "webhooks" w WHERE w.id = c.webhook_id)
  GROUP BY c.webhook_id ORDER BY c.webhook_id
  ON CONFLICT ("webhook_id") DO UPDATE SET "count" = "webhook_delivery_counts"."count" + excluded."count";
  ELSE
  INSERT INTO "webhook_delivery_counts" ("webhook_id", "count")
  SELECT c.webhook_id, (-1 * count(*))::int FROM old_deliveries c
  WHERE EXISTS (SELECT 1 FROM "webhooks" w WHERE w.id = c.webhook_id)
  GROUP BY c.webhook_id ORDER BY c.webhook_id
  ON CONFLICT ("webhook_id") DO UPDATE SET "count" = "webhook_delivery_counts"."count" + excluded."count";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_count_insert" AFTER INSERT ON "webhook_deliveries" REFERENCING NEW TABLE AS new_deliveries FOR EACH STATEMENT EXECUTE FUNCTION "count_webhook_deliveries"();--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_count_delete" AFTER DELETE ON "webhook_deliveries" REFERENCING OLD TABLE AS old_deliveries FOR EACH STATEMENT EXECUTE FUNCTION "count_webhook_deliveries"();--> statement-breakpoint
INSERT INTO "webhook_delivery_counts" ("webhook_id", "count")
SELECT "webhook_id", count(*) FROM "webhook_deliveries" GROUP BY "webhook_id";
