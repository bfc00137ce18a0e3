--> statement-breakpoint
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
