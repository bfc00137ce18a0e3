-- Payouts get their own states, rail, sender and purpose; returned coins (btc_refunds) become payouts of purpose 'refund'.
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_sent_has_result";--> statement-breakpoint
DROP INDEX "payouts_order_unique";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "rail" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "purpose" text DEFAULT 'payout' NOT NULL;--> statement-breakpoint
UPDATE "payouts" SET "state" = 'submitted' WHERE "state" = 'sending';--> statement-breakpoint
UPDATE "payouts" SET "state" = 'settled' WHERE "state" = 'sent';--> statement-breakpoint
UPDATE "payouts" SET "rail" = CASE WHEN "payouts"."kind" = 'btc' THEN 'onchain' ELSE "orders"."payment_method" END
  FROM "orders" WHERE "orders"."id" = "payouts"."order_id";--> statement-breakpoint
-- A demo-chain send put a payout_started event naming its payout in the timeline; other bitcoin payouts
-- outside a batch were recorded by staff.
UPDATE "payouts" SET "sender" = CASE
    WHEN "kind" = 'usd' THEN 'operator'
    WHEN "batch_id" IS NOT NULL THEN 'batch'
    WHEN EXISTS (
      SELECT 1 FROM "order_events"
      WHERE "order_events"."order_id" = "payouts"."order_id"
        AND "order_events"."details"->>'event' = 'payout_started'
        AND "order_events"."details"->>'payoutId' = "payouts"."id"::text
    ) THEN 'demo-chain'
    ELSE 'operator'
  END;--> statement-breakpoint
INSERT INTO "payouts" ("id", "order_id", "kind", "state", "rail", "sender", "purpose", "address", "txid", "created_by", "created_at", "sent_at")
  SELECT "id", "order_id", 'btc', 'settled', 'onchain', 'operator', 'refund', "address", "txid", "refunded_by", "created_at", "created_at"
  FROM "btc_refunds";--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "rail" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "sender" SET NOT NULL;--> statement-breakpoint
DROP TABLE "btc_refunds" CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_order_purpose_unique" ON "payouts" USING btree ("order_id","purpose") WHERE "payouts"."state" not in ('failed', 'cancelled');--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_settled_has_result" CHECK ("payouts"."state" <> 'settled' or "payouts"."txid" is not null or "payouts"."reference" is not null);
