-- A channel that goes away (a disconnect, a rediscovery that no longer lists it) keeps its id here,
-- by account and what names it at the network, to be given back when the account discovers it
-- again (docs/publishing.md, Channels): a published target's channel is then that channel again, and
-- adding the channel back to the post is no new target. Channels deleted before this migration
-- are not known.
CREATE TABLE "retired_channels" (
	"account_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"external_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"retired_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retired_channels_account_id_integration_id_external_id_pk" PRIMARY KEY("account_id","integration_id","external_id")
);
--> statement-breakpoint
ALTER TABLE "retired_channels" ADD CONSTRAINT "retired_channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;