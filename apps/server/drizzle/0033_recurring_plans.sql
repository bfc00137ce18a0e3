CREATE TABLE "plan_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"run_on" date NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"quote_id" uuid,
	"order_id" uuid,
	"transfer_id" text,
	"return_code" text,
	"note" text,
	"settled_at" timestamp with time zone,
	"release_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_runs_transfer_id_unique" UNIQUE("transfer_id"),
	CONSTRAINT "plan_runs_plan_day" UNIQUE("plan_id","run_on"),
	CONSTRAINT "plan_runs_status" CHECK ("plan_runs"."status" in ('claimed', 'debiting', 'holding', 'paid', 'returned', 'reversed', 'skipped', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"frequency" text NOT NULL,
	"next_run_on" date NOT NULL,
	"anchor_on" date NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_by_return" boolean DEFAULT false NOT NULL,
	"payout_address_id" uuid NOT NULL,
	"authorization_text" text NOT NULL,
	"authorized_at" timestamp with time zone NOT NULL,
	"authorized_ip" text NOT NULL,
	"bank_account_name" text NOT NULL,
	"bank_account_number" text NOT NULL,
	"bank_routing_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_amount" CHECK ("plans"."amount_cents" > 0),
	CONSTRAINT "plans_frequency" CHECK ("plans"."frequency" in ('weekly', 'biweekly', 'monthly')),
	CONSTRAINT "plans_status" CHECK ("plans"."status" in ('active', 'paused', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "global_settings" ADD COLUMN "recurring_hold_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_runs" ADD CONSTRAINT "plan_runs_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_runs" ADD CONSTRAINT "plan_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_runs" ADD CONSTRAINT "plan_runs_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_runs" ADD CONSTRAINT "plan_runs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_payout_address_id_payout_addresses_id_fk" FOREIGN KEY ("payout_address_id") REFERENCES "public"."payout_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_runs_open" ON "plan_runs" USING btree ("status") WHERE "plan_runs"."status" in ('claimed', 'debiting', 'holding', 'paid');--> statement-breakpoint
CREATE INDEX "plans_user" ON "plans" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "plans_due" ON "plans" USING btree ("next_run_on") WHERE "plans"."status" = 'active';--> statement-breakpoint
ALTER TABLE "global_settings" ADD CONSTRAINT "global_settings_recurring_hold" CHECK ("global_settings"."recurring_hold_days" between 0 and 30);