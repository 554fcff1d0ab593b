CREATE TABLE "mastodon_apps" (
	"instance_url" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mastodon_apps_instance_url_redirect_uri_pk" PRIMARY KEY("instance_url","redirect_uri")
);
--> statement-breakpoint
ALTER TABLE "integration_oauth_states" ADD COLUMN "service_url" text;