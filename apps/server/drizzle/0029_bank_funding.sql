CREATE TABLE "bank_account_numbers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"bank_account_number_id" text NOT NULL,
	"account_number" text NOT NULL,
	"routing_number" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_holder" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_account_numbers_bank_account_number_id_unique" UNIQUE("bank_account_number_id"),
	CONSTRAINT "bank_account_numbers_account_number_unique" UNIQUE("account_number")
);
--> statement-breakpoint
CREATE TABLE "bank_inbound_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trace_number" text NOT NULL,
	"bank_transfer_id" text NOT NULL,
	"rail" text NOT NULL,
	"bank_account_number_id" text NOT NULL,
	"user_id" uuid,
	"amount_cents" bigint NOT NULL,
	"originator_name" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"order_id" uuid,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_inbound_credits_trace_number_unique" UNIQUE("trace_number"),
	CONSTRAINT "bank_inbound_credits_bank_transfer_id_unique" UNIQUE("bank_transfer_id"),
	CONSTRAINT "bank_inbound_credits_amount" CHECK ("bank_inbound_credits"."amount_cents" > 0),
	CONSTRAINT "bank_inbound_credits_status" CHECK ("bank_inbound_credits"."status" in ('matched', 'unmatched', 'returned')),
	CONSTRAINT "bank_inbound_credits_matched_order" CHECK (("bank_inbound_credits"."status" = 'matched') = ("bank_inbound_credits"."order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "bank_account_numbers" ADD CONSTRAINT "bank_account_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_inbound_credits" ADD CONSTRAINT "bank_inbound_credits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_inbound_credits" ADD CONSTRAINT "bank_inbound_credits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_inbound_credits_order" ON "bank_inbound_credits" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "bank_inbound_credits_unmatched" ON "bank_inbound_credits" USING btree ("received_at") WHERE "bank_inbound_credits"."status" = 'unmatched';--> statement-breakpoint
CREATE INDEX "bank_inbound_credits_user" ON "bank_inbound_credits" USING btree ("user_id");