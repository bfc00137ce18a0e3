CREATE TABLE "sim_chain_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"tip_height" integer NOT NULL,
	CONSTRAINT "sim_chain_state_single_row" CHECK ("sim_chain_state"."id" = 1),
	CONSTRAINT "sim_chain_state_tip" CHECK ("sim_chain_state"."tip_height" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sim_chain_transactions" (
	"txid" text NOT NULL,
	"vout" integer NOT NULL,
	"address" text NOT NULL,
	"value_sats" bigint NOT NULL,
	"block_height" integer,
	"dropped" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_chain_transactions_txid_vout_pk" PRIMARY KEY("txid","vout"),
	CONSTRAINT "sim_chain_transactions_vout" CHECK ("sim_chain_transactions"."vout" >= 0),
	CONSTRAINT "sim_chain_transactions_value" CHECK ("sim_chain_transactions"."value_sats" > 0)
);
--> statement-breakpoint
CREATE INDEX "sim_chain_transactions_address_idx" ON "sim_chain_transactions" USING btree ("address");