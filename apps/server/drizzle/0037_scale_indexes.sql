CREATE INDEX "users_phone_number_idx" ON "users" USING btree ("phone_number");--> statement-breakpoint
CREATE INDEX "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_type_status_updated_idx" ON "orders" USING btree ("type","status","updated_at");--> statement-breakpoint
CREATE INDEX "orders_type_status_created_idx" ON "orders" USING btree ("type","status","created_at");--> statement-breakpoint
CREATE INDEX "orders_flagged_updated_idx" ON "orders" USING btree ("updated_at") WHERE "orders"."flag" is not null;--> statement-breakpoint
CREATE INDEX "orders_completed_trade_time_idx" ON "orders" USING btree ("type",coalesce("completed_at", "created_at"),"id") WHERE "orders"."status" = 'completed';--> statement-breakpoint
CREATE INDEX "monitoring_cases_opened_idx" ON "monitoring_cases" USING btree ("opened_at","id");--> statement-breakpoint
-- hand-written below
-- The order desk finds customers by part of their e-mail (`ilike '%…%'`): a trigram index serves that
-- however many customers there are (docs/performance.md, "At scale"). The embedded database loads
-- pg_trgm itself (db/database.ts, EMBEDDED_EXTENSIONS).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
