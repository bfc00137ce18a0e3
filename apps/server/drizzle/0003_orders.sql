CREATE TABLE "order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"pair" text DEFAULT 'BTC-USD' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_sats" bigint NOT NULL,
	"value_cents" bigint NOT NULL,
	"price_cents" bigint NOT NULL,
	"platform_fee_cents" bigint NOT NULL,
	"network_fee_cents" bigint DEFAULT 0 NOT NULL,
	"bank_fee_cents" bigint DEFAULT 0 NOT NULL,
	"price_snapshot_id" uuid,
	"quote_expires_at" timestamp with time zone NOT NULL,
	"wallet_address" text,
	"deposit_index" integer,
	"payment_method" text,
	"receiving_details" jsonb,
	"payment_submitted_at" timestamp with time zone,
	"paypal_order_id" text,
	"paypal_capture_id" text,
	"bank_txn" text,
	"txn" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"received_sats" bigint,
	"flag" text,
	"flag_note" text,
	"cancel_reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_amounts_positive" CHECK ("orders"."amount_sats" > 0 and "orders"."value_cents" > 0 and "orders"."price_cents" > 0),
	CONSTRAINT "orders_fees_non_negative" CHECK ("orders"."platform_fee_cents" >= 0 and "orders"."network_fee_cents" >= 0 and "orders"."bank_fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "price_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sell_price_cents" bigint NOT NULL,
	"buy_price_cents" bigint NOT NULL,
	"network_fee_sats" bigint NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_price_snapshot_id_price_snapshots_id_fk" FOREIGN KEY ("price_snapshot_id") REFERENCES "public"."price_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_paypal_order_unique" ON "orders" USING btree ("paypal_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_paypal_capture_unique" ON "orders" USING btree ("paypal_capture_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_deposit_index_unique" ON "orders" USING btree ("deposit_index");--> statement-breakpoint
CREATE INDEX "price_snapshots_fetched_idx" ON "price_snapshots" USING btree ("fetched_at");