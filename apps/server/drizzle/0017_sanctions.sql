CREATE TABLE "sanctioned_addresses" (
	"address" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctions_list_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" text,
	"source" text,
	"address_count" integer DEFAULT 0 NOT NULL,
	"loaded_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	CONSTRAINT "sanctions_list_state_single_row" CHECK ("sanctions_list_state"."id" = 1),
	CONSTRAINT "sanctions_list_state_count" CHECK ("sanctions_list_state"."address_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sim_chain_transactions" ADD COLUMN "from_address" text;