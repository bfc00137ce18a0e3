CREATE TABLE "deposit_buy_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"payout_address_id" uuid,
	"scam_check" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_buys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credit_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"quote_id" uuid,
	"order_id" uuid,
	"note" text,
	"release_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_buys_credit_id_unique" UNIQUE("credit_id"),
	CONSTRAINT "deposit_buys_status" CHECK ("deposit_buys"."status" in ('claimed', 'holding', 'paid', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "scam_check" jsonb;--> statement-breakpoint
ALTER TABLE "deposit_buy_settings" ADD CONSTRAINT "deposit_buy_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_buy_settings" ADD CONSTRAINT "deposit_buy_settings_payout_address_id_payout_addresses_id_fk" FOREIGN KEY ("payout_address_id") REFERENCES "public"."payout_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_buys" ADD CONSTRAINT "deposit_buys_credit_id_bank_inbound_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."bank_inbound_credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_buys" ADD CONSTRAINT "deposit_buys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_buys" ADD CONSTRAINT "deposit_buys_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_buys" ADD CONSTRAINT "deposit_buys_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_buys_open" ON "deposit_buys" USING btree ("status") WHERE "deposit_buys"."status" in ('claimed', 'holding');