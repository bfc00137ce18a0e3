CREATE TABLE "btc_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"address" text NOT NULL,
	"txid" text NOT NULL,
	"refunded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sell_deposit_terms" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"quoted_sats" bigint NOT NULL,
	"locked_price_cents" bigint NOT NULL,
	"base_price_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sell_deposit_terms_positive" CHECK ("sell_deposit_terms"."quoted_sats" > 0 and "sell_deposit_terms"."locked_price_cents" > 0 and "sell_deposit_terms"."base_price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "btc_refunds" ADD CONSTRAINT "btc_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sell_deposit_terms" ADD CONSTRAINT "sell_deposit_terms_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "btc_refunds_order_unique" ON "btc_refunds" USING btree ("order_id");