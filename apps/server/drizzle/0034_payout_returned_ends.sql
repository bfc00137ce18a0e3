DROP INDEX "payouts_order_purpose_unique";--> statement-breakpoint
CREATE INDEX "payouts_reference_idx" ON "payouts" USING btree ("reference") WHERE "payouts"."reference" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_order_purpose_unique" ON "payouts" USING btree ("order_id","purpose") WHERE "payouts"."state" not in ('failed', 'cancelled', 'returned');