-- Replaces the index on the status alone, through which a save's double-submission check could read every
-- customer's pending orders: the new one still serves a status's sweeps and queues, and narrows to one
-- customer within it.
CREATE INDEX "orders_status_user_created_idx" ON "orders" USING btree ("status","user_id","created_at");--> statement-breakpoint
DROP INDEX "orders_status_idx";