CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount_sats" bigint NOT NULL,
	"value_cents" bigint NOT NULL,
	"price_cents" bigint NOT NULL,
	"platform_fee_cents" bigint NOT NULL,
	"network_fee_cents" bigint NOT NULL,
	"bank_fee_cents" bigint NOT NULL,
	"mid_price_cents" bigint NOT NULL,
	"spread_cents" bigint NOT NULL,
	"payment_method" text,
	"price_snapshot_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_amounts_positive" CHECK ("quotes"."amount_sats" > 0 and "quotes"."value_cents" > 0 and "quotes"."price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_paypal" text DEFAULT 'Bitcoin is sent after the payment clears.' NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_zelle" text DEFAULT 'Within hours of receipt.' NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_ach" text DEFAULT 'After the transfer settles, 1–3 business days.' NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "arrival_wire" text DEFAULT 'Same or next business day.' NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_price_snapshot_id_price_snapshots_id_fk" FOREIGN KEY ("price_snapshot_id") REFERENCES "public"."price_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_user_created_idx" ON "quotes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_order_idx" ON "quotes" USING btree ("order_id");