CREATE SEQUENCE "public"."deposit_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid,
	"address" text NOT NULL,
	"txid" text NOT NULL,
	"vout" integer NOT NULL,
	"value_sats" bigint NOT NULL,
	"block_height" integer,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'seen' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_output_unique" ON "deposits" USING btree ("txid","vout");--> statement-breakpoint
CREATE INDEX "deposits_order_idx" ON "deposits" USING btree ("order_id");