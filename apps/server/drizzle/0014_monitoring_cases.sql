CREATE TABLE "monitoring_case_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"admin_user_id" uuid NOT NULL,
	"admin_email" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"trigger_key" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"outcome" text,
	"sar_filed_at" text,
	"sar_reference" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "monitoring_cases_closed_outcome" CHECK (("monitoring_cases"."status" = 'closed') = ("monitoring_cases"."outcome" is not null and "monitoring_cases"."closed_at" is not null)),
	CONSTRAINT "monitoring_cases_sar_details" CHECK (("monitoring_cases"."outcome" = 'sar_filed') = ("monitoring_cases"."sar_filed_at" is not null and "monitoring_cases"."sar_reference" is not null))
);
--> statement-breakpoint
CREATE TABLE "order_monitoring_marks" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"order_updated_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitoring_case_notes" ADD CONSTRAINT "monitoring_case_notes_case_id_monitoring_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."monitoring_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_case_notes" ADD CONSTRAINT "monitoring_case_notes_admin_user_id_users_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_cases" ADD CONSTRAINT "monitoring_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_monitoring_marks" ADD CONSTRAINT "order_monitoring_marks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitoring_case_notes_case_idx" ON "monitoring_case_notes" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_cases_one_open" ON "monitoring_cases" USING btree ("user_id","rule") WHERE "monitoring_cases"."status" <> 'closed';--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_cases_trigger_unique" ON "monitoring_cases" USING btree ("user_id","rule","trigger_key");--> statement-breakpoint
CREATE INDEX "monitoring_cases_status_idx" ON "monitoring_cases" USING btree ("status","opened_at");