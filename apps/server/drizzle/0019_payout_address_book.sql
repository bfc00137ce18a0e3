CREATE TABLE "payout_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"label" text NOT NULL,
	"address" text,
	"xpub" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"confirm_token_hash" text,
	"confirm_token_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"usable_at" timestamp with time zone,
	"proven_at" timestamp with time zone,
	"next_index" integer DEFAULT 0 NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_addresses_one_kind" CHECK (("payout_addresses"."address" is null) <> ("payout_addresses"."xpub" is null)),
	CONSTRAINT "payout_addresses_next_index" CHECK ("payout_addresses"."next_index" >= 0)
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "proof_required_cents" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payout_address_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payout_index" integer;--> statement-breakpoint
ALTER TABLE "payout_addresses" ADD CONSTRAINT "payout_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_addresses_user_idx" ON "payout_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_addresses_user_address_unique" ON "payout_addresses" USING btree ("user_id","address") WHERE "payout_addresses"."removed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_addresses_user_xpub_unique" ON "payout_addresses" USING btree ("user_id","xpub") WHERE "payout_addresses"."removed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_addresses_one_default" ON "payout_addresses" USING btree ("user_id") WHERE "payout_addresses"."is_default" and "payout_addresses"."removed_at" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payout_address_id_payout_addresses_id_fk" FOREIGN KEY ("payout_address_id") REFERENCES "public"."payout_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payout_index_unique" ON "orders" USING btree ("payout_address_id","payout_index");--> statement-breakpoint
-- Addresses customers used before the address book existed are taken as confirmed and usable: the
-- Settings wallet becomes each customer's default entry, and unsettled buys keep their address.
INSERT INTO "payout_addresses" ("user_id", "label", "address", "is_default", "confirmed_at", "usable_at")
SELECT "user_id", 'Wallet', "wallet_address", true, now(), now()
FROM "user_settings" WHERE "wallet_address" IS NOT NULL;--> statement-breakpoint
INSERT INTO "payout_addresses" ("user_id", "label", "address", "confirmed_at", "usable_at")
SELECT DISTINCT o."user_id", 'Used with a buy', o."wallet_address", now(), now()
FROM "orders" o
WHERE o."type" = 'buy' AND o."status" IN ('pending', 'processing') AND o."wallet_address" IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "payout_addresses" p
    WHERE p."user_id" = o."user_id" AND p."address" = o."wallet_address"
  );--> statement-breakpoint
UPDATE "orders" o SET "payout_address_id" = p."id"
FROM "payout_addresses" p
WHERE o."type" = 'buy' AND o."status" IN ('pending', 'processing') AND o."payout_address_id" IS NULL
  AND p."user_id" = o."user_id" AND p."address" = o."wallet_address";
