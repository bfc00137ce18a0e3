ALTER TABLE "outbox_messages" ADD COLUMN "delivery_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_delivery_unique" ON "outbox_messages" USING btree ("delivery_id");