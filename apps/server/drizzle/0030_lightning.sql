CREATE TABLE "demo_lightning_invoices" (
	"payment_hash" text PRIMARY KEY NOT NULL,
	"node" text NOT NULL,
	"invoice" text NOT NULL,
	"preimage" text NOT NULL,
	"amount_sats" bigint,
	"external_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"received_sats" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_lightning_payments" (
	"payment_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node" text NOT NULL,
	"payment_hash" text NOT NULL,
	"status" text NOT NULL,
	"amount_sats" bigint NOT NULL,
	"fee_sats" bigint NOT NULL,
	"preimage" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_lightning_payments_settled" CHECK ("demo_lightning_payments"."status" <> 'settled' or "demo_lightning_payments"."preimage" is not null)
);
--> statement-breakpoint
CREATE TABLE "lightning_payouts" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"payment_hash" text NOT NULL,
	"invoice" text NOT NULL,
	"fee_budget_sats" bigint NOT NULL,
	"fee_sats" bigint,
	"preimage" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "lightning_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "lightning_max_order_sats" bigint DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "lightning_max_payout_sats" bigint DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "lightning_daily_payout_sats" bigint DEFAULT 50000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lightning_invoice" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lightning_payment_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lightning_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lightning_paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lightning_payouts" ADD CONSTRAINT "lightning_payouts_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_lightning_payments_hash_idx" ON "demo_lightning_payments" USING btree ("payment_hash");--> statement-breakpoint
CREATE INDEX "lightning_payouts_hash_idx" ON "lightning_payouts" USING btree ("payment_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_lightning_payment_hash_unique" ON "orders" USING btree ("lightning_payment_hash");