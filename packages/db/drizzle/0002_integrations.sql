CREATE TABLE "integration_connections" (
	"account_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"connected_by" text,
	"credentials" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_expires_at" timestamp (3) with time zone,
	"meta" jsonb NOT NULL,
	"connected_at" timestamp (3) with time zone NOT NULL,
	"last_sync_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "integration_connections_account_id_integration_id_pk" PRIMARY KEY("account_id","integration_id")
);
--> statement-breakpoint
CREATE TABLE "integration_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"user_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"redirect_url" text NOT NULL,
	"callback_url" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_connections" ADD CONSTRAINT "integration_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_oauth_states" ADD CONSTRAINT "integration_oauth_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_oauth_states" ADD CONSTRAINT "integration_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_connections_account_idx" ON "integration_connections" USING btree ("account_id","connected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "integration_oauth_states_expires_idx" ON "integration_oauth_states" USING btree ("expires_at");