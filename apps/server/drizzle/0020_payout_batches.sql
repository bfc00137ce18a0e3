CREATE TABLE "payout_batch_claims" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_batch_orders" (
	"batch_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"address" text NOT NULL,
	"amount_sats" bigint NOT NULL,
	"vout" integer,
	CONSTRAINT "payout_batch_orders_batch_id_order_id_pk" PRIMARY KEY("batch_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text NOT NULL,
	"fee_tier" text NOT NULL,
	"fee_rate_sat_per_kvb" integer NOT NULL,
	"fee_sats" bigint NOT NULL,
	"payout_sats" bigint NOT NULL,
	"inputs" jsonb NOT NULL,
	"change_address" text,
	"change_index" integer,
	"change_sats" bigint NOT NULL,
	"unsigned_psbt" text NOT NULL,
	"signed_tx_hex" text,
	"txid" text,
	"replaces_batch_id" uuid,
	"block_height" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"broadcast_at" timestamp with time zone,
	CONSTRAINT "payout_batches_fee" CHECK ("payout_batches"."fee_sats" > 0),
	CONSTRAINT "payout_batches_change" CHECK ("payout_batches"."change_sats" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "sim_chain_transactions" ADD COLUMN "spent_by_txid" text;--> statement-breakpoint
ALTER TABLE "payout_batch_claims" ADD CONSTRAINT "payout_batch_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_claims" ADD CONSTRAINT "payout_batch_claims_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_orders" ADD CONSTRAINT "payout_batch_orders_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_orders" ADD CONSTRAINT "payout_batch_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_replaces_batch_id_payout_batches_id_fk" FOREIGN KEY ("replaces_batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batch_orders_order_idx" ON "payout_batch_orders" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payout_batches_status_idx" ON "payout_batches" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_txid_unique" ON "payout_batches" USING btree ("txid");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_replaces_unique" ON "payout_batches" USING btree ("replaces_batch_id");--> statement-breakpoint
CREATE INDEX "sim_chain_transactions_spent_by_idx" ON "sim_chain_transactions" USING btree ("spent_by_txid");