CREATE TABLE "ach_file_entries" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"business_day" date NOT NULL,
	"order_id" uuid NOT NULL,
	"trace_number" text NOT NULL,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ach_files" (
	"business_day" date PRIMARY KEY NOT NULL,
	"contents" text NOT NULL,
	"entry_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"effective_entry_date" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_business_day_ach_files_business_day_fk" FOREIGN KEY ("business_day") REFERENCES "public"."ach_files"("business_day") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ach_file_entries" ADD CONSTRAINT "ach_file_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ach_file_entries_day_trace_unique" ON "ach_file_entries" USING btree ("business_day","trace_number");--> statement-breakpoint
CREATE INDEX "ach_file_entries_order_idx" ON "ach_file_entries" USING btree ("order_id");