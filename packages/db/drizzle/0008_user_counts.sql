CREATE TABLE "user_counts" (
	"account_id" text NOT NULL,
	"role" "user_role" NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "user_counts_account_id_role_pk" PRIMARY KEY("account_id","role"),
	CONSTRAINT "user_counts_not_negative" CHECK ("user_counts"."count" >= 0)
);
--> statement-breakpoint
DROP INDEX "users_account_created_idx";--> statement-breakpoint
ALTER TABLE "user_counts" ADD CONSTRAINT "user_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_account_role_created_idx" ON "users" USING btree ("account_id","role","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_account_created_idx" ON "users" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Backfill: the counts of the users already there (from here on, services keep them).
INSERT INTO "user_counts" ("account_id", "role", "count")
SELECT "account_id", "role", count(*) FROM "users" GROUP BY "account_id", "role";
