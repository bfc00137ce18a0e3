CREATE INDEX "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_type_status_updated_idx" ON "orders" USING btree ("type","status","updated_at");--> statement-breakpoint
CREATE INDEX "orders_type_status_created_idx" ON "orders" USING btree ("type","status","created_at");--> statement-breakpoint
CREATE INDEX "orders_flagged_updated_idx" ON "orders" USING btree ("updated_at") WHERE "orders"."flag" is not null;--> statement-breakpoint
CREATE INDEX "orders_completed_trade_time_idx" ON "orders" USING btree ("type",coalesce("completed_at", "created_at"),"id") WHERE "orders"."status" = 'completed';