ALTER TABLE "orders" ADD COLUMN "lightning_preimage" text;--> statement-breakpoint
-- hand-written below
-- Buys already paid out by Lightning keep their proof on the order too: the preimage of their settled payout.
UPDATE "orders" SET "lightning_preimage" = lp."preimage"
FROM "payouts" p JOIN "lightning_payouts" lp ON lp."payout_id" = p."id"
WHERE p."order_id" = "orders"."id" AND p."rail" = 'lightning' AND p."state" = 'settled'
  AND lp."preimage" IS NOT NULL AND "orders"."lightning_preimage" IS NULL;
