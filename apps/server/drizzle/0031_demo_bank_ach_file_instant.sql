CREATE TABLE "ach_file_entries" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"business_day" date NOT NULL,
	"order_id" uuid NOT NULL,
	"trace_number" text NOT NULL,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ach_files" (
	"business_day" date PRIMARY KEY NOT NULL,
	"contents" text NOT NULL,
	"entry_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"effective_entry_date" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_bank_account_numbers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"routing_number" text NOT NULL,
	"name" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_bank_account_numbers_account_number_unique" UNIQUE("account_number"),
	CONSTRAINT "demo_bank_account_numbers_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "demo_bank_account_numbers_status" CHECK ("demo_bank_account_numbers"."status" in ('active', 'disabled', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "demo_bank_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"webhook_secret" text NOT NULL,
	CONSTRAINT "demo_bank_state_single_row" CHECK ("demo_bank_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "demo_bank_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"direction" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"trace_number" text NOT NULL,
	"idempotency_key" text,
	"account_number_id" text,
	"counterparty_account_number" text,
	"counterparty_routing_number" text,
	"counterparty_name" text NOT NULL,
	"sec_code" text,
	"description" text DEFAULT '' NOT NULL,
	"return_code" text,
	"settle_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_bank_transfers_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "demo_bank_transfers_amount" CHECK ("demo_bank_transfers"."amount_cents" > 0),
	CONSTRAINT "demo_bank_transfers_kind" CHECK ("demo_bank_transfers"."kind" in ('ach_credit', 'ach_debit', 'wire', 'rtp', 'fednow')),
	CONSTRAINT "demo_bank_transfers_status" CHECK ("demo_bank_transfers"."status" in ('pending', 'submitted', 'settled', 'rejected', 'returned')),
	CONSTRAINT "demo_bank_transfers_inbound_account" CHECK (("demo_bank_transfers"."direction" = 'inbound') = ("demo_bank_transfers"."account_number_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "instant_active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "instant_bank_charges_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "instant_max_payout_cents" bigint DEFAULT 2500000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_instant" text DEFAULT 'Arrives in seconds, any day and hour.' NOT NULL;--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_business_day_ach_files_business_day_fk" FOREIGN KEY ("business_day") REFERENCES "public"."ach_files"("business_day") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ach_file_entries_day_trace_unique" ON "ach_file_entries" USING btree ("business_day","trace_number");--> statement-breakpoint
CREATE INDEX "ach_file_entries_order_idx" ON "ach_file_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "demo_bank_transfers_account_number" ON "demo_bank_transfers" USING btree ("account_number_id");--> statement-breakpoint
CREATE INDEX "demo_bank_transfers_trace" ON "demo_bank_transfers" USING btree ("trace_number");--> statement-breakpoint
CREATE INDEX "demo_bank_transfers_counterparty" ON "demo_bank_transfers" USING btree ("counterparty_account_number");--> statement-breakpoint
CREATE INDEX "demo_bank_transfers_due" ON "demo_bank_transfers" USING btree ("settle_at") WHERE "demo_bank_transfers"."status" = 'submitted' and "demo_bank_transfers"."settle_at" is not null;